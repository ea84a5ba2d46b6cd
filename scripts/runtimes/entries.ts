// How each runtime gets the smoke suite (smoke.ts) and the package: entry.mjs imports it, entry.cjs requires it, as the
// runtime's users do, and each prints the suite's report; the config is written in, so no runtime needs a permission
// to read the environment.
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildFailure } from "esbuild";
import type { Browser } from "playwright-core";
import { guardContext, launchChromium } from "../lib/chromium.ts";
import type { Run } from "../lib/pack.ts";
import { REPORT_MARK, type SmokeConfig, type SmokeReport } from "./smoke.ts";

export async function writeEntries(consumerDir: string, config: SmokeConfig, smokeSource: string): Promise<void> {
  const [lib, run, mark] = [`"rainbond-openapi"`, `smoke(lib, ${JSON.stringify(config)})`, JSON.stringify(REPORT_MARK)];
  const print = `.then((r) => { console.log(${mark} + JSON.stringify(r)); return r; })`;
  await writeFile(join(consumerDir, "smoke.mjs"), smokeSource);
  const esm = `import * as lib from ${lib};\nimport { smoke } from "./smoke.mjs";\nexport const done = ${run}${print};`;
  await writeFile(join(consumerDir, "entry.mjs"), esm);
  const cjs = `const lib = require(${lib});\nimport("./smoke.mjs").then(({ smoke }) => ${run})${print};`;
  await writeFile(join(consumerDir, "entry.cjs"), cjs);
}

/** The smoke report an entry printed, from among whatever else the runtime printed. */
export function parseReport(stdout: string): SmokeReport {
  const line = stdout.split("\n").find((l) => l.startsWith(REPORT_MARK));
  if (!line) throw new Error(`printed no smoke report:\n${stdout.trim().slice(-2000) || "(nothing)"}`);
  return JSON.parse(line.slice(REPORT_MARK.length)) as SmokeReport;
}

/** entry.mjs bundled for the edge runtime as an Edge Function is (`edge-light`, `worker` and, esbuild's default
 *  platform, `browser` conditions; no Node builtins: importing one fails the bundle), as one script. */
export async function edgeBundle(consumerDir: string): Promise<string> {
  const result = await build({
    entryPoints: ["entry.mjs"],
    absWorkingDir: consumerDir,
    bundle: true,
    write: false,
    conditions: ["edge-light", "worker"],
    target: "es2022",
    logLevel: "silent",
  }).catch((err: BuildFailure) => {
    const why = err.errors?.map((e) => `${e.location?.file ?? ""}: ${e.text}`).join("; ");
    throw new Error(`the package does not bundle for the edge runtime: ${why ?? err}`, { cause: err });
  });
  return result.outputFiles[0]!.text;
}

/** The import map of Chromium's page: the package and its dependencies, each mapped to the file Node resolves for
 *  `import` (the export conditions a browser bundler starts from). */
export async function importMapOf(consumerDir: string, run: Run): Promise<Record<string, string>> {
  const manifest = JSON.parse(await readFile(join(consumerDir, "node_modules/rainbond-openapi/package.json"), "utf8"));
  const names = [manifest.name, ...Object.keys(manifest.dependencies ?? {})];
  const code = `console.log(JSON.stringify(${JSON.stringify(names)}.map((n) => [n, import.meta.resolve(n)])))`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], { cwd: consumerDir });
  const resolved = JSON.parse(stdout) as [string, string][];
  const path = (url: string) => `/${relative(consumerDir, fileURLToPath(url)).split(sep).join("/")}`;
  return Object.fromEntries(resolved.map(([name, url]) => [name, path(url)]));
}

/** Runs entry.mjs in a fresh Chromium page, under guardContext, that loads the shipped ES modules (no bundler to paper
 *  over a Node-only import). The page is served from loopback, another origin than the Prism mock's (as a console's
 *  is), so the calls go through CORS; its problems are a failed check of the report. */
export async function runInChromium(consumerDir: string, config: SmokeConfig, run: Run): Promise<SmokeReport> {
  const importMap = JSON.stringify({ imports: await importMapOf(consumerDir, run) });
  const page = `<!doctype html>\n<script type="importmap">${importMap}</script>\n`;
  const site = await listen(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    if (path === "/") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    const file = join(consumerDir, path);
    const served = file.startsWith(consumerDir + sep) && /\.[cm]?js$/.test(file);
    const body = served ? await readFile(file).catch(() => undefined) : undefined;
    res.writeHead(body ? 200 : 404, { "content-type": "text/javascript" }).end(body);
  });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ serviceWorkers: "block" });
    const guard = await guardContext(context);
    const tab = await context.newPage();
    await tab.goto(`${site.url}/`);
    // A module that fails to load (an import the browser cannot resolve, such as `node:fs`) rejects the import.
    const done = tab.evaluate(`import("/entry.mjs").then((entry) => entry.done)`) as Promise<SmokeReport>;
    const report = await done.catch((err: Error) => {
      const problems = guard.problems().length ? ` (${guard.problems().join("; ")})` : "";
      throw new Error(`the page failed: ${err.message.split("\n")[0]}${problems}`, { cause: err });
    });
    if (guard.seen === 0) throw new Error("the request guard saw no request: it is not in the way");
    // Chromium logs every non-2xx answer; the one the 404 check asks for is expected, any other error is not.
    const expected404 = `the server responded with a status of 404 (Not Found) (${config.baseUrl}/`;
    guard.consoleErrors = guard.consoleErrors.filter((e) => !e.startsWith(`Failed to load resource: ${expected404}`));
    const problems = guard.problems();
    if (problems.length) report.checks.push({ name: "the page stays clean", ok: false, detail: problems.join("; ") });
    return report;
  } finally {
    await browser?.close();
    await site.close();
  }
}

/** A loopback server that never finishes an answer, for the timeout and abort checks: under /headers-first/ it sends
 *  the status and headers (and answers CORS preflights) but never the body; anywhere else, nothing at all. */
export function startHangingServer() {
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "authorization, content-type, prefer",
  };
  return listen((req, res) => {
    req.resume();
    if (!req.url?.startsWith("/headers-first/")) return;
    if (req.method === "OPTIONS") res.writeHead(204, cors).end();
    else res.writeHead(200, { ...cors, "content-type": "application/json" }).flushHeaders();
  });
}

/** Listens on a free loopback port; `close` ends its open connections too. */
async function listen(handler: RequestListener) {
  const server = createServer(handler);
  await once(server.listen(0, "127.0.0.1"), "listening");
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}
