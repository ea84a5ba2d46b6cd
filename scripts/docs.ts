// The documentation site, site/ (docs/docs-site.md). TypeDoc runs in this process while Redocly's CLI (which has no
// programmatic build-docs) runs in a child on another core.
import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { extname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Application, DeclarationReflection, PageEvent, ProjectReflection, Reflection } from "typedoc";
import { addCodeSamples } from "./docs/code-samples.ts";
import { clientMethods, packageJson, referenceAnchor, siteUrl, type MethodRow, type Spec } from "./lib/reference.ts";
import { commandLine, isMain, root } from "./lib/script.ts";
import { readSpec } from "./lib/spec.ts";

export const siteDir = join(root, "site");
const assetsDir = join(root, "scripts", "docs");
/** The navigation link typedoc.json gives the guide: right for the guide's front page, given each page's depth below. */
const REFERENCE_FROM_GUIDE = "../index.html#/";
/** The pages for whoever maintains the package rather than uses it: the guide shows them last. */
const MAINTAINER_PAGES = /^(CONTRIBUTING|docs\/(editing-the-spec|releasing|runtimes|performance|docs-site))$/;

/** The "API docs by Redocly" badge Redoc shows, drawn here rather than loaded from Redocly's CDN. */
const badge = (text: string, width: number) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="14" viewBox="0 0 ${width} 14">` +
      `<text x="0" y="11" textLength="${width - 1}" lengthAdjust="spacingAndGlyphs" font-family="system-ui,sans-serif"` +
      ` font-size="11" font-weight="600" fill="#0044d4">${text}</text></svg>`,
  )}`;
/** What Redoc would fetch from Redocly's CDN: the badge, and icon packs (this spec asks for none; data: loads nothing). */
const CDN_REPLACEMENTS = {
  "https://cdn.redoc.ly/redoc/logo-mini-full.svg": badge("Redocly", 42),
  "https://cdn.redoc.ly/redoc/logo-mini.svg": badge("R", 8),
  "https://cdn.redocly.com/icons/fa/7.0.0": "data:,",
  "https://cdn.redocly.com/icons/code/5.24.0": "data:,",
};

/** The documentation site as built by buildSite: where, its file count, and the file: URLs of its two entry pages. */
export type BuiltSite = Awaited<ReturnType<typeof buildSite>>;

/** The site's copy of the spec: the guide's link, code samples, server texts without backticks (Redoc shows plain text). */
export async function siteSpec(spec: Spec): Promise<Spec> {
  const guide = `Guide to the TypeScript client, rainbond-openapi ${packageJson.version}`;
  spec.externalDocs ??= { description: guide, url: "guide/index.html" };
  await addCodeSamples(spec);
  const plain = (text?: string) => text?.replace(/`([^`]*)`/g, "$1");
  for (const server of spec.servers ?? []) {
    server.description = plain(server.description);
    for (const variable of Object.values(server.variables ?? {})) variable.description = plain(variable.description);
  }
  return spec;
}

/**
 * The spec as the reference shows it: a pattern the spec also says in words (`x-pattern-means`), and in fewer
 * characters, is shown as those words, in the schema's title beside its type ("a port number from 1 to 65535", not
 * `^([1-9][0-9]{0,3}|...)$`); a short one (`^[\p{L}\p{N}_-]+$`) stays. The download (site/openapi.json) keeps both.
 */
export function shownSpec(spec: Spec): Spec {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
    const means = out["x-pattern-means"];
    const pattern = out.pattern;
    if (typeof means === "string" && typeof pattern === "string" && means.length < pattern.length && !out.title) {
      delete out.pattern;
      out.title = means;
    }
    return out;
  };
  return walk(spec) as Spec;
}

/** Redocly's `build-docs` of `specPath` into `outFile`, without telemetry or update check, CDN images replaced. */
async function buildReference(specPath: string, outFile: string): Promise<void> {
  const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
  const options = ["--inlineBundle", "--template", join(assetsDir, "redoc.hbs")];
  options.push("--config", join(assetsDir, "redocly-site.yaml"), "--output", outFile);
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  await promisify(execFile)(process.execPath, [cli, "build-docs", specPath, ...options], { cwd: root, env });
  let html = await readFile(outFile, "utf8");
  for (const [from, to] of Object.entries(CDN_REPLACEMENTS)) html = html.replaceAll(from, to);
  await writeFile(outFile, html);
}

/**
 * A guide page fixed up: without the README's contributors' commands; links to the reference relative to its depth;
 * icons from the page's own sprite, not assets/icons.svg, which Chromium refuses to load from file://.
 */
function fixGuidePage(page: PageEvent) {
  if (!page.contents) return;
  const up = "../".repeat(page.url.split("/").length - 1);
  const published = new RegExp(`href="${siteUrl.replaceAll(".", "\\.")}(?:index\\.html)?(#[^"]*)?"`, "g");
  page.contents = page.contents
    .replace(/(<use href=")[^"#]*assets\/icons\.svg#/g, "$1#")
    .replace(/<!-- contributors[\s\S]*?<!-- \/contributors -->/g, "")
    .replaceAll(`href="${REFERENCE_FROM_GUIDE}"`, `href="${up}${REFERENCE_FROM_GUIDE}"`)
    .replace(published, (_, hash = "") => `href="../${up}index.html${hash}"`);
}

/** The guide's group of the functions of `rainbond-openapi/operations`, and of the core they take. */
const FUNCTIONS_GROUP = "One function per operation";

/**
 * The guide's navigation (groups set here, not by `@group` tags that would tie src/'s doc comments to one page), the
 * documents' names, the README without its title (the page's own says it), and under each method of an API area and
 * each function of `rainbond-openapi/operations` the operation it calls, linked to the reference.
 */
function annotate(td: typeof import("typedoc"), project: ProjectReflection, rows: MethodRow[]) {
  const { Interface, Class } = td.ReflectionKind;
  const functions = new Set([
    "createRainbondCore",
    "requestOperation",
    "OperationId",
    ...rows.map((r) => r.operationId),
  ]);
  const groupOf = ({ name, kind }: Reflection) =>
    (["createRainbondClient", "ClientOptions", "RainbondClient"].includes(name) && "Client") ||
    (kind === Interface && /^[A-Z]\w*Api$/.test(name) && "API areas") ||
    (kind === Class && name.endsWith("Error") && "Errors") ||
    (functions.has(name) && FUNCTIONS_GROUP) ||
    "Types and helpers";
  for (const child of project.children ?? []) {
    child.comment ??= new td.Comment();
    child.comment.blockTags.push(new td.CommentTag("@group", [{ kind: "text", text: groupOf(child) }]));
  }
  for (const document of project.documents ?? []) {
    document.frontmatter.group = MAINTAINER_PAGES.test(document.name) ? "For maintainers" : "Guides";
    const heading = /^# (.+)$/m.exec(td.Comment.combineDisplayParts(document.content))?.[1];
    document.name = document.name === "CHANGELOG" ? "Changelog" : (heading ?? document.name);
  }
  const [first] = project.readme ?? [];
  if (first?.kind === "text") first.text = first.text.replace(/^# .*\n+/, "");
  /** The summary of a method's or a function's comment (of its signature, or of the const it is), made if none. */
  const summaryOf = (reflection: Reflection | undefined, name: string) => {
    const documented = (reflection as DeclarationReflection | undefined)?.signatures?.[0] ?? reflection;
    if (!documented) throw new Error(`the guide has no ${name}`);
    return (documented.comment ??= new td.Comment()).summary;
  };
  const calls = (operation: MethodRow["operation"]) =>
    `Calls [\`${operation.method} ${operation.path}\`](${siteUrl}${referenceAnchor(operation)}), ` +
    `\`${operation.operationId}\` in the API reference`;
  for (const row of rows) {
    // the group's interface, as RainbondGroups names it (`ports: PortsApi`)
    const group = project.getChildByName(["RainbondGroups", row.group]) as DeclarationReflection | undefined;
    const api = group?.type?.type === "reference" ? group.type.name : "?";
    const through = row.via ? ` (through \`${row.via}\`)` : "";
    const summary = summaryOf(project.getChildByName([api, row.method]), `${api}.${row.method} (${row.name})`);
    summary.push({ kind: "text", text: `\n\n${calls(row.operation)}${through}.` });
  }
  for (const { operation } of rows.filter((row) => row.kind === "operation")) {
    const summary = summaryOf(project.getChildByName(operation.operationId), operation.operationId);
    const from = `Import it from \`rainbond-openapi/operations\`; it takes a core (\`createRainbondCore\`) first.`;
    summary.push({ kind: "text", text: `\n\n${calls(operation)}. ${from}` });
  }
}

/** Each module of the guide's entry points merged into the project, so that the functions of
 *  `rainbond-openapi/operations` sit beside the client's names (TypeDoc's `@mergeModuleWith <project>`). */
function mergeEntryPoints(td: typeof import("typedoc"), project: ProjectReflection) {
  for (const module of project.getReflectionsByKind(td.ReflectionKind.Module)) {
    module.comment ??= new td.Comment();
    module.comment.blockTags.push(new td.CommentTag("@mergeModuleWith", [{ kind: "text", text: "<project>" }]));
  }
}

/**
 * Inline code in a heading, kept as text between `<code>` tags: TypeDoc reads a heading's text (its entry in "On this
 * page", its anchor) from the heading's text tokens only, and would leave the code out.
 */
function headingCodeAsText(parser: {
  core: { ruler: { push(name: string, rule: (state: MarkdownState) => void): void } };
}) {
  parser.core.ruler.push("heading_code_as_text", (state) => {
    state.tokens.forEach((token, i) => {
      const inline = state.tokens[i + 1];
      if (token.type !== "heading_open" || !inline?.children) return;
      const make = (type: string, content: string) => Object.assign(new state.Token(type, "", 0), { content });
      inline.children = inline.children.flatMap((child) =>
        child.type === "code_inline"
          ? [make("html_inline", "<code>"), make("text", child.content), make("html_inline", "</code>")]
          : [child],
      );
    });
  });
}
/** What headingCodeAsText reads of markdown-it's state. */
type MarkdownToken = { type: string; content: string; children: MarkdownToken[] | null };
type MarkdownState = {
  tokens: MarkdownToken[];
  Token: new (type: string, tag: string, nesting: number) => MarkdownToken;
};

/** TypeDoc, in this process, with typedoc.json: src/index.ts and src/operations.ts -> `outDir`. Returns its warning
 *  count. */
async function buildGuide(outDir: string, quiet: boolean): Promise<number> {
  const td = await import("typedoc");
  const projectDocuments = ["docs/*.md", "CHANGELOG.md", "CONTRIBUTING.md"];
  const app: Application = await td.Application.bootstrapWithPlugins(
    {
      ...{ options: join(root, "typedoc.json"), out: outDir, logLevel: quiet ? "Error" : "Warn", projectDocuments },
      markdownItLoader: headingCodeAsText,
    },
    [new td.TypeDocReader(), new td.PackageJsonReader(), new td.TSConfigReader()],
  );
  if (!Object.values(app.options.getValue("navigationLinks")).includes(REFERENCE_FROM_GUIDE))
    throw new Error(`typedoc.json: navigationLinks must link to the API reference as "${REFERENCE_FROM_GUIDE}"`);
  // before TypeDoc merges modules (its MergeModuleWithPlugin listens at priority 10,000)
  app.converter.on(td.Converter.EVENT_RESOLVE_BEGIN, (context) => mergeEntryPoints(td, context.project), 20_000);
  // before the groups are made (GroupPlugin listens at priority -100)
  app.converter.on(td.Converter.EVENT_RESOLVE_END, (context) => annotate(td, context.project, clientMethods().rows), 0);
  app.renderer.on(td.PageEvent.END, fixGuidePage);
  const project = await app.convert();
  if (!project || app.logger.hasErrors()) throw new Error("TypeDoc could not convert the entry points (see above)");
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error("TypeDoc reported errors (see above)");
  return app.logger.warningCount;
}

/** Every file under `dir`, relative to it, with its size. */
async function filesUnder(dir: string): Promise<{ file: string; size: number }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (file) => ({ file: relative(dir, file), size: (await stat(file)).size })));
}

/** Fails when a page of the site would load anything (script, style, image, font, frame, import) but data: URLs. */
export async function assertSelfContained(dir = siteDir): Promise<void> {
  const url = `((?:[a-z][a-z0-9+.-]*:)?//[^"'\\s>)]+)`; // with any scheme but data: (which has no //)
  const loaders = [
    `(?:<(?:script|img|iframe|source|audio|video|embed)\\b[^>]*\\ssrc|<link\\b[^>]*\\shref)\\s*=\\s*["']?${url}`,
    `(?:@import\\s+(?:url\\()?|url\\()\\s*["']?${url}`,
    `\\bimport\\s*(?:\\{[^}]*\\}\\s*from\\s*)?["']((?:https?:)?//[^"']+)`,
    "(https?://(?:cdn\\.redoc\\.ly|cdn\\.redocly\\.com|fonts\\.googleapis\\.com|fonts\\.gstatic\\.com)[^\"'\\s)`]*)",
  ].map((source) => new RegExp(source, "gi"));
  const problems = new Set<string>();
  for (const { file } of await filesUnder(dir)) {
    if (!/\.(html|css|js|mjs)$/.test(file)) continue;
    const text = await readFile(join(dir, file), "utf8");
    for (const pattern of loaders) for (const match of text.matchAll(pattern)) problems.add(`  ${file}: ${match[1]}`);
  }
  if (problems.size) throw new Error(`the site would load from outside itself:\n${[...problems].join("\n")}`);
}

/** Builds the site into `outDir` (default site/, emptied first). */
export async function buildSite({ outDir = siteDir, quiet = false } = {}) {
  const start = performance.now();
  const log = (line: string) => quiet || console.log(line);
  log(`docs: generated/openapi.json + src/index.ts -> ${relative(process.cwd(), outDir) || "."}/`);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const spec = await siteSpec(readSpec() as unknown as Spec);
  await writeFile(join(outDir, "openapi.json"), `${JSON.stringify(spec, null, 2)}\n`);
  const shown = join(outDir, "shown.json");
  await writeFile(shown, JSON.stringify(shownSpec(spec)));
  const referencePath = join(outDir, "index.html");
  const [, warnings] = await Promise.all([
    buildReference(shown, referencePath).then(() => rm(shown)),
    buildGuide(join(outDir, "guide"), quiet),
    copyFile(join(assetsDir, "favicon.svg"), join(outDir, "favicon.svg")),
  ]);
  await assertSelfContained(outDir);

  const files = await filesUnder(outDir);
  const reference = pathToFileURL(referencePath).href;
  const guide = pathToFileURL(join(outDir, "guide", "index.html")).href;
  const size = `${files.length} files, ${(files.reduce((sum, file) => sum + file.size, 0) / 2 ** 20).toFixed(2)} MiB`;
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  log(`site built in ${seconds} s: ${size}${warnings ? ` (TypeDoc: ${warnings} warning(s))` : ""}`);
  log(`  reference  ${reference}\n  guide      ${guide}`);
  return { outDir, files: files.length, reference, guide };
}

/** Content types of what the site holds (the spec's copy is served as bytes: it is there for download). */
const TYPES: { [ext: string]: string } = { html: "text/html", js: "text/javascript", css: "text/css" };
TYPES.svg = "image/svg+xml";

/**
 * Serves a directory on 127.0.0.1 as a plain static host would (index.html for directories, 404 otherwise), under
 * `prefix` (a project's GitHub Pages are under `/<name>/`): anything outside it is not found.
 */
export async function serveSite({ dir = siteDir, port = 0, prefix = "/" } = {}) {
  const base = resolve(dir);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    if (!path.startsWith(prefix)) return void res.writeHead(404).end("not found");
    let file = resolve(base, `./${path.slice(prefix.length)}`);
    if (file !== base && !file.startsWith(base + sep)) return void res.writeHead(403).end();
    if ((await stat(file).catch(() => undefined))?.isDirectory()) file = join(file, "index.html");
    if (!(await stat(file).catch(() => undefined))) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-type": TYPES[extname(file).slice(1)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await once(server.listen(port, "127.0.0.1"), "listening");
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}${prefix}`;
  // close() ends open connections too: a browser's keep-alive sockets would otherwise hold it open
  return { url, close: () => new Promise<void>((done) => (server.close(() => done()), server.closeAllConnections())) };
}

if (isMain(import.meta)) {
  const { values, positionals } = commandLine(
    "usage: npm run docs [-- --serve [port]]\n\n" +
      "  (no flag)        build site/: the API reference, and the guide to the client\n" +
      "  --serve [port]   build site/, then serve it on http://127.0.0.1:port (default 8080)",
    { serve: { type: "boolean" } },
    { allowPositionals: true },
  );
  try {
    await buildSite();
    if (values.serve)
      console.log(`serving site/ on ${(await serveSite({ port: Number(positionals[0] ?? 8080) })).url}`);
  } catch (err) {
    console.error(`docs: ${err instanceof Error ? err.message : err}`); // one line, no stack: what failed and why
    process.exitCode = 1;
  }
}
