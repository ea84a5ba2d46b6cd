// The client in a browser: src/index.ts bundles for the browser with no Node polyfill (so the entry imports nothing
// Node-only), and a page served from loopback calls the Prism mock through it (cross-origin: Prism sends CORS headers).
// Chromium may reach loopback only; everything else is aborted and recorded.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { guardContext, launchChromium } from "../../../scripts/lib/chromium.ts";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { root } from "../../../scripts/lib/script.ts";

const prismUrl = inject("prismUrl");
let bundle: string;
let bundledInputs: string[];
let server: Server | undefined;
let pageOrigin: string;
let browser: Browser | undefined;

const page = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>rainbond-openapi in a browser</title>
<pre id="result">running</pre>
<script type="module" src="/app.js"></script>
</html>
`;

// Runs in the page: the same calls a Node user would make, against the mock whose URL is in the query string.
const app = `import { createRainbondClient, RainbondApiError, RainbondNotFoundError } from "/client.js";

const baseUrl = new URLSearchParams(location.search).get("prism");
const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };

async function run() {
  const client = createRainbondClient({ baseUrl, token: "browser-demo-token", logLevel: "off" });
  const c = await client.components.get(component);
  const p = await client.ports.add(component, { port: 8080, protocol: "http" });
  const notFound = createRainbondClient({ baseUrl, token: "browser-demo-token", logLevel: "off", headers: { Prefer: "code=404" } });
  let error;
  try {
    await notFound.components.get(component);
  } catch (err) {
    if (!(err instanceof RainbondApiError)) throw err;
    error = { isNotFound: err instanceof RainbondNotFoundError, name: err.name, status: err.status };
  }
  return {
    component: c.service_cname + " " + c.version + " (" + c.status + ")",
    port: p.container_port + "/" + p.protocol + " " + p.k8s_service_name,
    error,
    client: String(client),
  };
}

const out = document.getElementById("result");
window.rainbondResult = run().then(
  (result) => ((out.textContent = JSON.stringify(result)), result),
  (err) => {
    out.textContent = "failed: " + err;
    throw err;
  },
);
`;

beforeAll(async () => {
  const result = await build({
    entryPoints: [join(root, "src/index.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  expect(result.errors).toEqual([]);
  expect(result.warnings).toEqual([]);
  bundle = result.outputFiles[0]!.text;
  bundledInputs = Object.keys(result.metafile.inputs);

  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const body = { "/": page, "/app.js": app, "/client.js": bundle }[path];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    const type = path === "/" ? "text/html; charset=utf-8" : "text/javascript; charset=utf-8";
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server!.once("error", reject).listen(0, "127.0.0.1", () => resolve());
  });
  pageOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
});

test("src/index.ts bundles for the browser from the client's own code and openapi-fetch alone", () => {
  expect(bundledInputs.length).toBeGreaterThan(0);
  for (const input of bundledInputs) {
    expect(input, `${input} is in the browser bundle`).toMatch(
      /^(src|generated)\/[\w./-]+\.ts$|^node_modules\/openapi-fetch\//,
    );
  }
  expect(bundledInputs).toContain("src/index.ts");
  expect(bundle).not.toMatch(/\brequire\(|from\s*["']node:/);
});

test("a page calls the Prism mock through the client: components.get, ports.add and a 404", async () => {
  const context = await browser!.newContext({ serviceWorkers: "block" });
  try {
    const guard = await guardContext(context);
    const toPrism: string[] = [];
    const tab = await context.newPage();
    tab.on(
      "request",
      (req) => req.url().startsWith(prismUrl) && toPrism.push(`${req.method()} ${new URL(req.url()).pathname}`),
    );

    await tab.goto(`${pageOrigin}/?prism=${encodeURIComponent(prismUrl)}`);
    const result = await tab.evaluate("window.rainbondResult");

    const expected = {
      component: "web-frontend 1.4.2 (running)",
      port: "8080/http gr3f9c2a-8080",
      error: { isNotFound: true, name: "RainbondNotFoundError", status: 404 },
      client: `RainbondClient { baseUrl: ${JSON.stringify(prismUrl)} }`,
    };
    expect(result).toEqual(expected);
    expect(JSON.parse((await tab.textContent("#result")) ?? "")).toEqual(expected);
    const componentPath = "/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a";
    expect(toPrism).toEqual([`GET ${componentPath}`, `POST ${componentPath}/ports`, `GET ${componentPath}`]);
    // Chromium logs the 404 the page asks Prism for as a console error; nothing else may go wrong.
    const expected404 = `Failed to load resource: the server responded with a status of 404 (Not Found) (${prismUrl}/`;
    guard.consoleErrors = guard.consoleErrors.filter((e) => !e.startsWith(expected404));
    expect(guard.problems()).toEqual([]);
    expect(guard.seen).toBeGreaterThan(0);
  } finally {
    await context.close();
  }
});
