#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The documentation site: generated/openapi.json + src/index.ts -> site/ (a static site, git-ignored).
//
//   site/index.html     the API reference: Redocly `build-docs --inlineBundle` (Redoc 3), one self-contained page
//   site/openapi.json   the bundled spec it renders, for download
//   site/guide/         the guide to the TypeScript client: TypeDoc (typedoc.json) from src/index.ts's doc comments,
//                       with README.md as its front page, and the pages of docs/ and CHANGELOG.md (those there are)
//
// The site's copy of the spec gets what belongs to the site, not to spec/: the reference's link to the guide (the
// root `externalDocs`, a URL relative to the site), a code sample of every operation with this client and with curl
// (`x-codeSamples`, scripts/docs/code-samples.ts), and server descriptions without Markdown (Redoc shows them as
// plain text). The guide links back through a TypeDoc navigation link, and each method of an API area links to the
// operation it calls. Links to the published site (the README's table of methods, those added to the methods) are
// made relative to the page, so that the site stands on its own wherever it is put. The site works from file:// and from any static host, and nothing it loads leaves the machine:
// Redoc's scripts are inlined, the CDN images Redoc would load are replaced by data: URLs, the page carries a
// Content-Security-Policy that allows nothing external, and telemetry is off. `assertSelfContained` checks the output.
//
// TypeDoc runs in this process; the one process spawned is Redocly's CLI (it has no programmatic build-docs), and
// both run at the same time.
//
//   node scripts/docs.ts                  build site/
//   node scripts/docs.ts --serve [port]   build site/, then serve it on http://127.0.0.1:port (default 8080)
import { spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { codeSamples } from "./docs/code-samples.ts";
import { commandLine } from "./lib/script.ts";
import { clientMethods, referenceAnchor, siteUrl } from "./docs/methods.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

export const siteDir = join(root, "site");
const assetsDir = join(root, "scripts", "docs");

/** The pages of docs/ (as TypeDoc names them: the path without .md) written for whoever maintains the package rather than for its users. */
const MAINTAINER_PAGES = new Set(
  ["editing-the-spec", "verifying-a-console", "releasing", "runtimes", "performance", "docs-site"].map(
    (name) => `docs/${name}`,
  ),
);

/** The guide's place in the site, and the reference's place as seen from the guide's front page. */
const GUIDE = "guide";
const GUIDE_LINK = { description: "Guide to the TypeScript client (rainbond-openapi)", url: `${GUIDE}/index.html` };
/** The navigation link typedoc.json gives the guide; it is right for the guide's front page and fixed up below it. */
const REFERENCE_FROM_GUIDE = "../index.html#/";

/**
 * What Redoc 3 would fetch from Redocly's CDN: the "API docs by Redocly" badge it shows once it hydrates (drawn here
 * as data: URLs), and the base URLs of the icon packs it loads icons from when a spec asks for them (this one does
 * not; an empty data: URL keeps a stray icon from fetching anything).
 */
const badge = (text, width) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="14" viewBox="0 0 ${width} 14">` +
      `<text x="0" y="11" textLength="${width - 1}" lengthAdjust="spacingAndGlyphs" font-family="system-ui,sans-serif"` +
      ` font-size="11" font-weight="600" fill="#0044d4">${text}</text></svg>`,
  )}`;
const CDN_REPLACEMENTS = {
  "https://cdn.redoc.ly/redoc/logo-mini-full.svg": badge("Redocly", 42),
  "https://cdn.redoc.ly/redoc/logo-mini.svg": badge("R", 8),
  "https://cdn.redocly.com/icons/fa/7.0.0": "data:,",
  "https://cdn.redocly.com/icons/code/5.24.0": "data:,",
};

function log(quiet, ...args) {
  if (!quiet) console.log(...args);
}

async function timed(quiet, name, fn) {
  const start = performance.now();
  const result = await fn();
  log(quiet, `  ${name.padEnd(17)} ${(performance.now() - start).toFixed(0).padStart(6)} ms`);
  return result;
}

/** Runs `redocly build-docs` on the spec: the only child process of the build. */
function redocBuildDocs(specPath, outFile) {
  const cli = require.resolve("@redocly/cli/bin/cli.js");
  const args = [
    cli,
    "build-docs",
    specPath,
    "--inlineBundle",
    "--template",
    join(assetsDir, "redoc.hbs"),
    "--config",
    join(assetsDir, "redocly-site.yaml"),
    "--output",
    outFile,
  ];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      // No telemetry from the CLI nor from the page it writes (the page reads the CLI's setting); no update check.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolvePromise(output);
      else reject(new Error(`redocly build-docs exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Fixes up each page of the guide as TypeDoc renders it:
 * - the link back to the reference (typedoc.json's navigationLinks, which TypeDoc writes as given) gets the page's
 *   depth, so that it works from every page and not just the front page, and so do links to the published site;
 * - icons are referenced in the page itself (`#icon-x`, the sprite assets/icons.js adds to every page) rather than in
 *   assets/icons.svg, which Chromium refuses to load from file:// (an error in the console on every page).
 */
function postProcessGuidePage(page) {
  if (!page.contents) return;
  const depth = page.url.split("/").length - 1;
  let html = page.contents.replace(/(<use href=")[^"#]*assets\/icons\.svg#/g, "$1#");
  // the README's commands for a clone: a user of the package reads the guide, so it opens with what they need
  html = html.replace(/<!-- contributors[\s\S]*?<!-- \/contributors -->/g, "");
  if (depth > 0) {
    html = html.replaceAll(`href="${REFERENCE_FROM_GUIDE}"`, `href="${"../".repeat(depth)}${REFERENCE_FROM_GUIDE}"`);
  }
  // the published site's reference, as the site's own: `${site}#/ports/...` -> `../index.html#/ports/...`
  html = html.replace(
    new RegExp(`href="${escapeRegExp(siteUrl())}(?:index\\.html)?(#[^"]*)?"`, "g"),
    (_, hash = "") => `href="${"../".repeat(depth + 1)}index.html${hash}"`,
  );
  page.contents = html;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The pages of docs/ and the changelog, those that exist: the guide shows them as documents. */
async function documents() {
  const names = (await readdir(join(root, "docs")).catch(() => [])).filter((name) => name.endsWith(".md")).sort();
  const pages = names.map((name) => `docs/${name}`);
  if (await stat(join(root, "CHANGELOG.md")).catch(() => false)) pages.push("CHANGELOG.md");
  return pages;
}

/**
 * The guide's groups, in the order of typedoc.json's groupOrder: how to make a client first, then the API areas, then
 * the errors, then everything else. Set here rather than by `@group` tags in src/, which would tie the code's doc
 * comments to the layout of one page.
 */
function groupOf(reflection, td) {
  const name = reflection.name;
  if (["createRainbondClient", "ClientOptions", "RainbondClient"].includes(name)) return "Client";
  if (reflection.kindOf(td.ReflectionKind.Interface) && /^[A-Z]\w*Api$/.test(name)) return "API areas";
  if (reflection.kindOf(td.ReflectionKind.Class) && /Error$/.test(name)) return "Errors";
  return reflection.isDocument() ? undefined : "Types and helpers";
}

/**
 * Adds to the guide what it takes from generated/methods.json: each top-level item's group, and under each method of an
 * API area the operation it calls, linked to the reference (through the published site's URL, made relative above);
 * and names the documents.
 */
function annotate(td, project, methods) {
  const tag = (name, text) => new td.CommentTag(name, [{ kind: "text", text }]);
  for (const child of project.children ?? []) {
    const group = groupOf(child, td);
    if (!group) continue;
    child.comment ??= new td.Comment();
    child.comment.blockTags.push(tag("@group", group));
  }
  // documents are named by their first heading (the changelog's names the package: it is the changelog), and the
  // maintainers' pages are grouped after everything a user of the package reads
  for (const document of project.documents ?? []) {
    document.frontmatter.group = MAINTAINER_PAGES.has(document.name) ? "For maintainers" : "Guides";
    const heading = /^# (.+)$/m.exec(td.Comment.combineDisplayParts(document.content))?.[1];
    document.name = document.name === "CHANGELOG" ? "Changelog" : (heading ?? document.name);
  }
  for (const row of methods) {
    // the group's interface, as RainbondGroups names it (`ports: PortsApi`)
    const api = project.getChildByName(["RainbondGroups", row.group])?.type?.name;
    const signature = project.getChildByName([api, row.method])?.signatures?.[0];
    if (!signature) throw new Error(`the guide has no ${api}.${row.method} (${row.name})`);
    const { operation } = row;
    const link = `[\`${operation.method} ${operation.path}\`](${siteUrl()}${referenceAnchor(operation)})`;
    const through = row.via ? ` (through \`${row.via}\`)` : "";
    signature.comment ??= new td.Comment();
    signature.comment.summary.push({
      kind: "text",
      text: `\n\nCalls ${link}, \`${operation.operationId}\` in the API reference${through}.`,
    });
  }
}

/** TypeDoc, in this process, with typedoc.json: src/index.ts -> site/guide/. Returns its warning count. */
async function typedoc(outDir, quiet) {
  const entry = join(root, "src", "index.ts");
  try {
    await stat(entry);
  } catch {
    throw new Error("src/index.ts does not exist: the guide is generated from it (its doc comments)");
  }
  const td = await import("typedoc");
  const { rows: methods } = clientMethods();
  const projectDocuments = await documents();
  const app = await td.Application.bootstrapWithPlugins(
    { options: join(root, "typedoc.json"), out: outDir, logLevel: quiet ? "Error" : "Warn", projectDocuments },
    [new td.TypeDocReader(), new td.PackageJsonReader(), new td.TSConfigReader()],
  );
  const links = app.options.getValue("navigationLinks");
  if (!Object.values(links).includes(REFERENCE_FROM_GUIDE)) {
    throw new Error(`typedoc.json: navigationLinks must link to the API reference as "${REFERENCE_FROM_GUIDE}"`);
  }
  // before the groups are made (GroupPlugin listens at priority -100)
  app.converter.on(td.Converter.EVENT_RESOLVE_END, (context) => annotate(td, context.project, methods), 0);
  app.renderer.on(td.PageEvent.END, postProcessGuidePage);
  const project = await app.convert();
  if (!project || app.logger.hasErrors()) throw new Error("TypeDoc could not convert src/index.ts (see above)");
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error("TypeDoc reported errors (see above)");
  return app.logger.warningCount ?? 0;
}

/**
 * Fails when a page of the site would load something from elsewhere: a script, style sheet, image, font, frame,
 * an `@import`/`url()` or a module import from a URL with a scheme other than data:, or Redoc's CDN.
 */
export async function assertSelfContained(dir = siteDir) {
  const problems = [];
  const loaders = [
    /<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\ssrc\s*=\s*["']?((?:[a-z][a-z0-9+.-]*:)?\/\/[^"'\s>]+)/gi,
    /<link\b[^>]*\shref\s*=\s*["']?((?:[a-z][a-z0-9+.-]*:)?\/\/[^"'\s>]+)/gi,
    /@import\s+(?:url\()?\s*["']?((?:[a-z][a-z0-9+.-]*:)?\/\/[^"')\s]+)/gi,
    /url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi,
    /\bimport\s*(?:\{[^}]*\}\s*from\s*)?["']((?:https?:)?\/\/[^"']+)/gi,
    /(https?:\/\/(?:cdn\.redoc\.ly|cdn\.redocly\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)[^"'\s)`]*)/gi,
  ];
  for (const file of await listFiles(dir)) {
    if (!/\.(html|css|js|mjs)$/.test(file)) continue;
    const text = await readFile(join(dir, file), "utf8");
    for (const pattern of loaders) {
      for (const match of text.matchAll(pattern)) problems.push(`${file}: ${match[1]}`);
    }
  }
  if (problems.length) {
    throw new Error(
      `the site would load from outside itself:\n${[...new Set(problems)].map((p) => `  ${p}`).join("\n")}`,
    );
  }
}

async function listFiles(dir, prefix = "") {
  const files = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(dir, path)));
    else files.push(path);
  }
  return files;
}

async function siteSize(dir) {
  let bytes = 0;
  const files = await listFiles(dir);
  for (const file of files) bytes += (await stat(join(dir, file))).size;
  return { files: files.length, bytes };
}

/**
 * What the site's copy of the spec gets (spec/ and generated/openapi.json stay as they are): the link to the guide,
 * each operation's code samples, and server texts without Markdown's backticks (Redoc shows them as plain text).
 */
export async function siteSpec(spec) {
  spec.externalDocs ??= GUIDE_LINK;
  const samples = await codeSamples(spec);
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      if (operation?.operationId && samples[operation.operationId]) {
        operation["x-codeSamples"] = samples[operation.operationId];
      }
    }
  }
  const plain = (text) => text?.replace(/`([^`]*)`/g, "$1");
  for (const server of spec.servers ?? []) {
    server.description = plain(server.description);
    for (const variable of Object.values(server.variables ?? {})) variable.description = plain(variable.description);
  }
  return spec;
}

/**
 * Builds the site into `outDir` (default site/, emptied first). Returns where it is, its entry pages as file: URLs,
 * its size and the time taken.
 */
export async function buildSite({ outDir = siteDir, quiet = false } = {}): Promise<BuiltSite> {
  const start = performance.now();
  log(quiet, `docs: generated/openapi.json + src/index.ts -> ${relative(process.cwd(), outDir) || "."}/`);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });

  const spec = JSON.parse(await readFile(join(root, "generated", "openapi.json"), "utf8"));
  await siteSpec(spec);
  const specPath = join(outDir, "openapi.json");
  await writeFile(specPath, `${JSON.stringify(spec, null, 2)}\n`);
  const referencePath = join(outDir, "index.html");
  // The page shows `info.version` beside the title: there it is named as the API's, beside the package's version.
  // The download keeps the spec's version as it is.
  const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  const renderDir = await mkdtemp(join(tmpdir(), "rainbond-docs-"));
  const renderedSpecPath = join(renderDir, "openapi.json");
  const shownVersion = `API ${spec.info.version} · rainbond-openapi ${version}`;
  await writeFile(renderedSpecPath, JSON.stringify({ ...spec, info: { ...spec.info, version: shownVersion } }));

  // The reference's child process starts first and runs on another core while TypeDoc keeps this one busy (so the
  // two are timed together: TypeDoc's synchronous work delays noticing that the child has finished).
  let warnings;
  try {
    [, warnings] = await timed(quiet, "reference + guide", () =>
      Promise.all([
        redocBuildDocs(renderedSpecPath, referencePath).then(async () => {
          let html = await readFile(referencePath, "utf8");
          for (const [from, to] of Object.entries(CDN_REPLACEMENTS)) html = html.replaceAll(from, to);
          await writeFile(referencePath, html);
        }),
        typedoc(join(outDir, GUIDE), quiet),
        copyFile(join(assetsDir, "favicon.svg"), join(outDir, "favicon.svg")),
      ]),
    );
  } finally {
    await rm(renderDir, { recursive: true, force: true });
  }
  await timed(quiet, "check", () => assertSelfContained(outDir));

  const size = await siteSize(outDir);
  const ms = performance.now() - start;
  log(
    quiet,
    `site built in ${(ms / 1000).toFixed(1)} s: ${size.files} files, ${(size.bytes / 1024 / 1024).toFixed(2)} MiB` +
      (warnings ? ` (TypeDoc: ${warnings} warning(s))` : ""),
  );
  log(quiet, `  reference  ${pathToFileURL(referencePath).href}`);
  log(quiet, `  guide      ${pathToFileURL(join(outDir, GUIDE, "index.html")).href}`);
  return {
    outDir,
    reference: pathToFileURL(referencePath).href,
    guide: pathToFileURL(join(outDir, GUIDE, "index.html")).href,
    files: size.files,
    bytes: size.bytes,
    ms,
  };
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** Serves a directory on 127.0.0.1 as a plain static host would (index.html for directories, 404 otherwise). */
export function serveSite({ dir = siteDir, port = 0 } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const base = resolve(dir);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    let file = resolve(base, `.${path}`);
    if (file !== base && !file.startsWith(base + sep)) return void res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      await stat(file);
    } catch {
      return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}/`;
      // close() ends open connections too: a browser's keep-alive sockets would otherwise hold it open
      const close = () =>
        new Promise((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      resolvePromise({ url, close });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = commandLine(
    "usage: npm run docs [-- --serve [port]]\n\n" +
      "  (no flag)        build site/: the API reference, and the guide to the client\n" +
      "  --serve [port]   build site/, then serve it on http://127.0.0.1:port (default 8080)",
    { serve: { type: "boolean" } },
    { allowPositionals: true },
  );
  buildSite()
    .then(async () => {
      if (!values.serve) return;
      const { url } = await serveSite({ port: Number(positionals[0] ?? 8080) });
      console.log(`serving site/ on ${url} (Ctrl-C to stop)`);
    })
    .catch((err) => {
      console.error(`docs: ${err.message}`);
      process.exit(1);
    });
}

/** The documentation site as built by buildSite. */
export interface BuiltSite {
  /** The directory it was built into. */
  outDir: string;
  /** file: URL of the API reference (index.html). */
  reference: string;
  /** file: URL of the guide's front page (guide/index.html). */
  guide: string;
  files: number;
  bytes: number;
  /** Time taken, in milliseconds. */
  ms: number;
}
/** A code sample of an operation, as Redoc's `x-codeSamples` holds it. */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
