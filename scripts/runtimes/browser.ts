// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The smoke suite in Chromium: the package's ES modules as the tarball installed them, served from loopback and loaded
// through an import map (no bundler that could paper over a Node-only import), in the Chromium of the browser tests
// (test/browser/chromium.ts: launchChromium, and guardContext, which blocks and records any request leaving the machine
// and every page error). The page and the Prism mock are different origins, as a console and a web app are: the calls
// go through CORS.
import { readFile } from "node:fs/promises";
import { extname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { browserPage } from "./entries.ts";
import { startFileServer } from "./servers.ts";

const TYPES = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".json": "application/json",
};

/**
 * The import map of the page: the package and each of its dependencies, mapped to the file Node resolves for `import`
 * (the same export conditions a browser bundler starts from) under /node_modules/.
 */
export async function importMapOf(consumerDir, run) {
  const manifest = JSON.parse(await readFile(join(consumerDir, "node_modules/rainbond-openapi/package.json"), "utf8"));
  const names = [manifest.name, ...Object.keys(manifest.dependencies ?? {})];
  const code = `console.log(JSON.stringify(${JSON.stringify(names)}.map((n) => [n, import.meta.resolve(n)])))`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], { cwd: consumerDir });
  const resolved = JSON.parse(stdout);
  return Object.fromEntries(
    resolved.map(([name, url]) => [name, `/${relative(consumerDir, fileURLToPath(url)).split(sep).join("/")}`]),
  );
}

/** Runs the suite in a fresh page; resolves with its report, or rejects with what went wrong in the page. */
export async function runInChromium({ consumerDir, config, smokeSource, importMap, launchChromium, guardContext }) {
  const page = browserPage(config, importMap);
  const site = await startFileServer(async (path) => {
    if (path === "/") return { type: "text/html; charset=utf-8", body: page };
    if (path === "/smoke.mjs") return { type: TYPES[".mjs"], body: smokeSource };
    const file = normalize(join(consumerDir, path));
    if (!file.startsWith(join(consumerDir, "node_modules") + sep) || !TYPES[extname(file)]) return undefined;
    return readFile(file).then(
      (body) => ({ type: TYPES[extname(file)], body }),
      () => undefined,
    );
  });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ serviceWorkers: "block" });
    const guard = await guardContext(context);
    const tab = await context.newPage();
    await tab.goto(`${site.url}/`);
    let report;
    try {
      report = await tab.evaluate("window.smokeReport");
    } catch (err) {
      throw new Error(`the page failed: ${err.message.split("\n")[0]}${problemsOf(guard)}`, { cause: err });
    }
    if (guard.seen === 0) throw new Error("the request guard saw no request: it is not in the way");
    // Chromium logs every non-2xx answer; the one the 404 check asks for is expected, any other error is not.
    const expected404 = "Failed to load resource: the server responded with a status of 404 (Not Found)";
    guard.consoleErrors = guard.consoleErrors.filter((e) => !e.startsWith(`${expected404} (${config.baseUrl}/`));
    const problems = guard.problems();
    if (problems.length) report.checks.push({ name: "the page stays clean", ok: false, detail: problems.join("; ") });
    return report;
  } finally {
    await browser.close();
    await site.close();
  }
}

const problemsOf = (guard) => (guard.problems().length ? ` (${guard.problems().join("; ")})` : "");
