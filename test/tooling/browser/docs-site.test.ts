// The published docs site (scripts/docs.ts), in a real browser: built first (so this works on a fresh clone), then
// opened from file:// with every request that would leave the machine blocked and recorded, as it would be viewed
// offline. A last test serves it from a loopback static host. Screenshots of every page go to .screenshots/.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertSelfContained, buildSite, serveSite, type BuiltSite } from "../../../scripts/docs.ts";
import type { CodeSample } from "../../../scripts/docs/code-samples.ts";
import { readMethods } from "../../../scripts/lib/methods.ts";
import { root } from "../../../scripts/lib/script.ts";
import { chromiumPath, guardContext, launchChromium, type Guard } from "../../../scripts/lib/chromium.ts";
import {
  expandTag,
  openOperation,
  operationShowing,
  operationsOf,
  schemaProperty,
  sidebar,
  waitForRedoc,
  type Operation,
} from "./reference.js";

const screenshots = join(root, ".screenshots");
/** The field names the console spells irregularly; the reference must show them exactly so. */
const IRREGULAR_FIELDS = ["domain_heander", "is_upgrate", "creater"];

type Json = Record<string, unknown>;

let site: BuiltSite;
let spec: Json;
let operations: Operation[];
let guideName: string;
let browser: Browser | undefined;
let context: BrowserContext;
let guard: Guard;

/** Where Redoc puts an operation: the element id, and the route after `#/`. */
const referenceId = (op: Operation) => `${op.tag.toLowerCase().replace(/\s+/g, "-")}/${op.operationId.toLowerCase()}`;

const summariesOf = (tag: string) => operations.filter((op) => op.tag === tag).map((op) => op.summary);

const shot = new Set<string>();

/** A full-page screenshot in .screenshots/<name>.png, once per name (a page visited twice is pictured once). */
async function screenshot(page: Page, name: string) {
  if (shot.has(name)) return;
  shot.add(name);
  // Redoc's sections use `content-visibility: auto`: Chromium does not paint the ones outside the viewport, and a
  // full-page capture would show them blank. Painting them all is for the picture only; every check is done before.
  await page.addStyleTag({ content: "* { content-visibility: visible !important; }" });
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

/** Follows a link, in this tab or the new one it opens, and returns the page it landed on once loaded. */
async function follow(page: Page, link: Locator): Promise<Page> {
  const opensTab = (await link.getAttribute("target")) === "_blank";
  if (opensTab) {
    const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await tab.waitForLoadState("load");
    return tab;
  }
  const before = page.url();
  await link.click();
  await page.waitForURL((url) => url.href !== before);
  await page.waitForLoadState("load");
  return page;
}

async function openReference(url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await waitForRedoc(page);
  return page;
}

beforeAll(async () => {
  await chromiumPath(); // no Chromium: fail now, with the one message that says how to get one
  site = await buildSite({ quiet: true });
  spec = JSON.parse(await readFile(join(root, "generated", "openapi.json"), "utf8")) as Json;
  operations = operationsOf(spec);
  guideName = (JSON.parse(await readFile(join(root, "typedoc.json"), "utf8")) as { name: string }).name;
  await mkdir(screenshots, { recursive: true });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  guard = await guardContext(context);
}, 120_000);

afterEach(async () => {
  for (const page of context?.pages() ?? []) await page.close();
  guard?.reset();
});

afterAll(async () => {
  await browser?.close();
});

describe("the docs site", () => {
  it("has a guard that blocks and records requests leaving the machine", async () => {
    const page = await context.newPage();
    await page.goto(site.reference.replace(/index\.html$/, "favicon.svg"));
    const seenBefore = guard.seen;
    const outcome = await page.evaluate(() =>
      fetch("https://example.com/should-be-blocked").then(
        () => "loaded",
        () => "failed",
      ),
    );
    expect(outcome).toBe("failed");
    expect(guard.blocked).toEqual(["https://example.com/should-be-blocked"]);
    expect(guard.seen).toBeGreaterThan(seenBefore);
  });

  it("is built with a reference and a guide", () => {
    expect(site.files).toBeGreaterThan(2);
    expect(site.reference).toMatch(/^file:.*\/index\.html$/);
    expect(site.guide).toMatch(/^file:.*\/guide\/index\.html$/);
  });

  it("passes the build's own check for anything loaded from elsewhere, which does catch such pages", async () => {
    await expect(assertSelfContained(site.outDir)).resolves.toBeUndefined();
    const dir = await mkdtemp(join(tmpdir(), "docs-site-"));
    try {
      await writeFile(
        join(dir, "index.html"),
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">' +
          '<script type="module">import { hydrate } from "https://cdn.example.org/redoc.js";</script>' +
          '<img alt="" src="//cdn.example.org/logo.svg"><a href="https://example.org/">a link is fine</a>',
      );
      const error = await assertSelfContained(dir).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(error?.message.split("\n").slice(1).sort()).toEqual([
        "  index.html: //cdn.example.org/logo.svg",
        "  index.html: https://cdn.example.org/redoc.js",
        "  index.html: https://fonts.googleapis.com/css?family=Roboto",
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("lists every operation of the spec in the reference, with its summary", async () => {
    // every operation the client calls: the source's 17 and the console's others (101)
    expect(operations).toHaveLength(readMethods().filter((method) => method.kind === "operation").length);
    expect(new Set(operations.map((op) => op.summary)).size).toBe(operations.length);

    const page = await openReference(site.reference);
    expect(await page.title()).toBe((spec.info as Json).title);
    const listed: string[] = [];
    for (const tag of new Set(operations.map((op) => op.tag))) {
      const labels = await expandTag(page, tag);
      // in Redoc's order (a path's methods sorted), so compared sorted
      expect([...labels].sort(), `the operations under ${tag}`).toEqual(summariesOf(tag).sort());
      listed.push(...labels);
    }
    expect(listed.sort()).toEqual(operations.map((op) => op.summary).sort());
    await screenshot(page, "docs-reference");
    expect(guard.problems()).toEqual([]);
  });

  it(`shows the fields ${IRREGULAR_FIELDS.join(", ")} spelled as the console spells them`, async () => {
    const page = await openReference(site.reference);
    for (const field of IRREGULAR_FIELDS) {
      const op = operationShowing(spec, field);
      expect(op, `no operation of the spec answers with a field named ${field}`).toBeDefined();
      await openOperation(page, op!);
      await schemaProperty(page, field).first().waitFor({ state: "visible" });
      await screenshot(page, `docs-reference-${op!.operationId}`);
    }
    expect(guard.problems()).toEqual([]);
  });

  it("links the reference to the guide, and the guide back to the reference", async () => {
    const page = await openReference(site.reference);
    const guide = await follow(page, page.locator('a[href$="guide/index.html"]').first());
    expect(guide.url()).toBe(site.guide);
    expect(await guide.title()).toContain(guideName);
    // The guide documents src/index.ts: its entry point is in the navigation, README.md is its front page.
    await guide
      .locator(".tsd-navigation")
      .getByText("createRainbondClient", { exact: true })
      .first()
      .waitFor({ state: "attached" });
    const readmeTitle = (await readFile(join(root, "README.md"), "utf8")).match(/^# (.+)$/m)?.[1];
    await guide.getByRole("heading", { name: readmeTitle }).first().waitFor();
    // ... without the README's commands for a clone: a user of the package reads the guide
    expect(await readFile(join(root, "README.md"), "utf8")).toContain("npm ci && npm start");
    expect(await guide.content()).not.toContain("npm ci");
    await screenshot(guide, "docs-guide");

    // From a page deeper in the guide, back to the reference.
    await guide.goto(new URL("functions/createRainbondClient.html", site.guide).href);
    await guide
      .getByRole("heading", { name: /createRainbondClient/ })
      .first()
      .waitFor();
    await screenshot(guide, "docs-guide-createRainbondClient");
    const reference = await follow(guide, guide.locator("#tsd-toolbar-links a", { hasText: "API reference" }));
    expect(new URL(reference.url()).pathname).toBe(new URL(site.reference).pathname);
    await waitForRedoc(reference);
    expect(await reference.title()).toBe((spec.info as Json).title);
    expect(guard.problems()).toEqual([]);
  });

  it(
    "shows how to call each operation with the client, in TypeScript first, long lines wrapped in their panel",
    { timeout: 120_000 },
    async () => {
      // the site's copy of the spec carries the samples (generated from generated/table.json); spec/ does not
      const shown = JSON.parse(await readFile(join(site.outDir, "openapi.json"), "utf8")) as Json;
      expect(JSON.stringify(spec)).not.toContain("x-codeSamples");
      const methodOf = Object.fromEntries(
        readMethods()
          .filter((method) => method.kind === "operation")
          .map((method) => [method.operationId, `client.${method.name}(`]),
      );
      const samplesOf = (op: Operation) =>
        (shown.paths as Record<string, Record<string, Json>>)[op.path]![op.method]!["x-codeSamples"] as CodeSample[];
      for (const op of operations) {
        const samples = samplesOf(op);
        expect(
          samples.map((sample) => sample.label),
          op.operationId,
        ).toEqual(["TypeScript", "curl"]);
        expect(samples[0]!.source).toContain(`await ${methodOf[op.operationId]}`);
      }
      // In the page: of each tag, the operation whose samples have the longest line (where a panel would overflow
      // first). All 101 in the browser took 46 s idle, most of the docs suite, for what the longest lines decide.
      const longest = (op: Operation) =>
        Math.max(...samplesOf(op).flatMap((sample) => sample.source.split("\n").map((line) => line.length)));
      const shownInPage = [...new Set(operations.map((op) => op.tag))].map((tag) =>
        operations.filter((op) => op.tag === tag).reduce((a, b) => (longest(b) > longest(a) ? b : a)),
      );
      const page = await openReference(site.reference);
      const overflowing: string[] = [];
      for (const op of shownInPage) {
        await openOperation(page, op);
        const section = page.locator(`[id="${referenceId(op)}"]`);
        await section
          .locator("pre, code")
          .filter({ hasText: methodOf[op.operationId] })
          .first()
          .waitFor({ state: "visible" });
        await section.getByRole("button", { name: "TypeScript" }).first().waitFor({ state: "visible" });
        for (const language of ["curl", "TypeScript"]) {
          // every code block shown: drawn inside its panel, and nothing of it hidden to the right
          const found = await section.locator("pre").evaluateAll((blocks) =>
            blocks
              .filter((pre) => pre.getClientRects().length > 0)
              .filter((pre) => {
                const box = pre.getBoundingClientRect();
                const panel = pre.parentElement!.getBoundingClientRect();
                return box.right > panel.right + 1 || pre.scrollWidth > pre.clientWidth + 1;
              })
              .map((pre) =>
                pre
                  .textContent!.split("\n")
                  .reduce((a, b) => (b.length > a.length ? b : a))
                  .slice(0, 60),
              ),
          );
          overflowing.push(...found.map((line) => `${op.operationId}: ${line}`));
          // then the other language: the menu is a button naming the language shown, its items the others (it can
          // open beyond the viewport's edge, where a pointer could not reach it: the click is dispatched)
          await section
            .getByRole("button", { name: /^(TypeScript|curl)$/ })
            .first()
            .click();
          await page.getByRole("menuitem").filter({ hasText: language, visible: true }).first().dispatchEvent("click");
          await section
            .locator("pre")
            .filter({ hasText: language === "curl" ? "curl " : "createRainbondClient" })
            .first()
            .waitFor();
        }
      }
      await screenshot(page, "docs-reference-samples");
      expect(overflowing).toEqual([]);
      expect(guard.problems()).toEqual([]);
    },
  );

  it("shows the servers' text without Markdown backticks", async () => {
    const page = await openReference(site.reference);
    const texts = await page.locator('[data-testid="server-panel-item-name"]').allTextContents();
    const described = (spec.servers as { description: string }[]).map((server) => server.description);
    expect(described.join("")).toContain("`");
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(described.map((d) => d.replaceAll("`", ""))).toContain(text.trim());
  });

  it("heads the reference with its title and the API's version, in two lines at 1280 px; the package's version in the guide and its link", async () => {
    const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
    const apiVersion = (spec.info as Json).version as string;
    expect(version).not.toBe(apiVersion);
    const reference = await openReference(site.reference);
    const h1 = reference.locator("h1").first();
    expect((await h1.textContent())?.trim()).toBe(`${(spec.info as Json).title} (${apiVersion})`);
    // 7 lines beside Redoc's Copy button, with the package's version in it
    const lines = await h1.evaluate((h) =>
      Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)),
    );
    expect(lines).toBeLessThanOrEqual(2);
    await reference
      .getByRole("link", { name: `Guide to the TypeScript client, rainbond-openapi ${version}` })
      .waitFor();
    const guide = await context.newPage();
    await guide.goto(site.guide);
    expect(await guide.title()).toContain(version);
    // the download is the spec as it is
    const download = JSON.parse(await readFile(join(site.outDir, "openapi.json"), "utf8")) as Json;
    expect((download.info as Json).version).toBe(apiVersion);
    expect(guard.problems()).toEqual([]);
  });

  it("starts the guide's navigation with createRainbondClient and the API areas, errors after", async () => {
    const page = await context.newPage();
    await page.goto(site.guide);
    const groups = page.locator("#tsd-nav-container > li > details");
    await groups.first().waitFor({ state: "attached" });
    const titles = await groups.locator("> summary").allTextContents();
    expect(titles.map((t) => t.trim()).slice(0, 3)).toEqual(["Client", "API areas", "Errors"]);
    expect((await groups.nth(0).locator("a").allTextContents())[0]).toBe("createRainbondClient");
    const clientGroups = new Set(readMethods().map((method) => method.group));
    const areas = [...clientGroups].map((group) => `${group[0]!.toUpperCase()}${group.slice(1)}Api`);
    expect((await groups.nth(1).locator("a").allTextContents()).sort()).toEqual(areas.sort());
    expect(await groups.nth(2).locator("a").allTextContents()).toContain("RainbondNotFoundError");
    // then the functions of rainbond-openapi/operations, one per operation, and the core they take
    expect(titles.map((t) => t.trim())[3]).toBe("One function per operation");
    expect((await groups.nth(3).locator("a").allTextContents()).sort()).toEqual(
      ["createRainbondCore", "requestOperation", "OperationId", ...operations.map((op) => op.operationId)].sort(),
    );
    // the maintainers' pages last, in a section of their own, after every page a user of the package reads
    expect(titles.map((t) => t.trim()).slice(-2)).toEqual(["Guides", "For maintainers"]);
    const maintainers = await groups.last().locator("a").allTextContents();
    expect(maintainers).toEqual(
      expect.arrayContaining(["Contributing to rainbond-openapi", "Releasing rainbond-openapi", "Editing the spec"]),
    );
    const guides = await groups.nth(-2).locator("a").allTextContents();
    expect(guides).toEqual(
      expect.arrayContaining([
        "Changelog",
        "Methods",
        "Errors, retries, timeouts",
        "Verifying a console against the spec",
      ]),
    );
    expect(maintainers.filter((name) => guides.includes(name))).toEqual([]);
    expect(guard.problems()).toEqual([]);
  });

  it("links each method of the guide to the operation it calls in the reference", async () => {
    const page = await context.newPage();
    await page.goto(new URL("interfaces/PortsApi.html", site.guide).href);
    const links = await page
      .locator('.tsd-panel a[href*="index.html#/"]')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href")));
    const byId = Object.fromEntries(operations.map((op) => [op.operationId, op]));
    const portOperations = readMethods().filter((method) => method.group === "ports" && method.kind === "operation");
    expect(portOperations.map((method) => method.name)).toEqual([
      "ports.list",
      "ports.add",
      "ports.update",
      "ports.delete",
      "ports.listForTeam",
    ]);
    const expected = portOperations.map((method) => `../../index.html#/${referenceId(byId[method.operationId]!)}`);
    // every method of the area links to its operation: the four operations, and the shortcuts to ports.update's
    expect(new Set(links)).toEqual(new Set(expected));
    expect(links.filter((href) => href === expected[2])).toHaveLength(1 + 7); // with onlyOpenOuter (the overlay's)
    const reference = await follow(page, page.locator(`.tsd-panel a[href="${expected[2]}"]`).first());
    await waitForRedoc(reference);
    const op = byId[portOperations[2]!.operationId]!;
    expect(new URL(reference.url()).hash).toBe(`#/${referenceId(op)}`);
    await reference.waitForFunction((id) => {
      const top = document.getElementById(id)?.getBoundingClientRect().top;
      return top !== undefined && top >= 0 && top < window.innerHeight;
    }, referenceId(op));
    expect(guard.problems()).toEqual([]);
  });

  it("shows the pages of docs/, the changelog and CONTRIBUTING.md in the guide, linked from the README", async () => {
    const pages = (await readdir(join(root, "docs"))).filter((name) => name.endsWith(".md")).map((n) => `docs/${n}`);
    for (const file of ["CHANGELOG.md", "CONTRIBUTING.md"]) if (existsSync(join(root, file))) pages.push(file);
    expect(pages).toContain("docs/methods.md");
    const page = await context.newPage();
    await page.goto(site.guide);
    const documents = page
      .locator("#tsd-nav-container > li > details")
      .filter({ has: page.locator("> summary", { hasText: /^\s*(Guides|For maintainers)\s*$/ }) })
      .locator("a");
    await documents.first().waitFor({ state: "attached" });
    expect(await documents.count()).toBe(pages.length);
    for (const file of pages) {
      const heading = /^# (.+)$/m.exec(await readFile(join(root, file), "utf8"))?.[1];
      const name = file === "CHANGELOG.md" ? "Changelog" : heading!;
      expect(await documents.allTextContents(), file).toContain(name);
    }
    // the README's link to the methods leads to their page, within the guide
    const methods = await follow(
      page,
      page.locator('.tsd-panel a[href*="documents/"]', { hasText: "its methods" }).first(),
    );
    expect(methods.url()).toMatch(/\/guide\/documents\/[^/]+\.html$/);
    await methods
      .locator("h1", { hasText: /^Methods/ })
      .first()
      .waitFor();
    // whose table links to the reference, relative to the site
    const openOuter = methods.locator("tr", { hasText: "ports.openOuter" }).locator("a").first();
    expect(await openOuter.getAttribute("href")).toBe("../../index.html#/ports/updatecomponentport");
    expect(guard.problems()).toEqual([]);
  });

  it("works from a static host too, under a path, loading nothing from elsewhere", async () => {
    const server = await serveSite({ dir: site.outDir, prefix: "/rainbond-openapi/" });
    try {
      const page = await openReference(server.url);
      expect(await page.title()).toBe((spec.info as Json).title);
      // every link of the reference stays on the site: a route of the page (#/ports), relative, or another site's
      const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
      expect(hrefs.filter((href) => href.startsWith("/"))).toEqual([]);
      // a tag's link in the sidebar, opened in a new tab, shows that tag
      const ports = sidebar(page)
        .locator("a", { has: page.locator('span[data-text="Ports"]') })
        .first();
      const href = (await ports.getAttribute("href"))!;
      expect(href).toBe("#/ports");
      const tab = await context.newPage();
      const answer = await tab.goto(new URL(href, page.url()).href);
      expect(answer?.status()).toBe(200);
      await waitForRedoc(tab);
      await tab
        .locator("h2", { hasText: /^\s*Ports\s*$/ })
        .first()
        .waitFor({ state: "visible" });
      await tab.close();
      const guide = await follow(page, page.locator('a[href$="guide/index.html"]').first());
      expect(guide.url()).toBe(`${server.url}guide/index.html`);
      expect(await guide.title()).toContain(guideName);
      await screenshot(guide, "docs-guide-http");
      // Routing within the reference works over http as it does from file://. (Back to its tab: Chromium throttles
      // a tab in the background.)
      if (guide !== page) await guide.close();
      await page.bringToFront();
      const last = operations.at(-1)!;
      await openOperation(page, last);
      expect(new URL(page.url()).hash).toMatch(/^#\//);
      await screenshot(page, `docs-reference-http-${last.operationId}`);
      expect(guard.problems()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("opens the guide with its title once, and the README's sections in its page navigation", async () => {
    const page = await context.newPage();
    await page.goto(site.guide);
    expect(await page.locator("h1").count()).toBe(1);
    expect(await page.locator("h1").first().textContent()).toContain(guideName);
    const readme = await readFile(join(root, "README.md"), "utf8");
    const sections = [
      ...readme.replace(/<!-- contributors[\s\S]*?<!-- \/contributors -->/, "").matchAll(/^## (.+)$/gm),
    ];
    const entries = await page.locator(".tsd-page-navigation a").allTextContents();
    expect(entries.map((text) => text.trim())).toEqual(sections.map(([, heading]) => heading));
    expect(guard.problems()).toEqual([]);
  });

  it("finds the functions of rainbond-openapi/operations by the guide's search", async () => {
    const page = await context.newPage();
    await page.goto(site.guide);
    await page.locator("#tsd-search-trigger").click();
    await page.locator("#tsd-search-input").fill("listComponentPorts");
    const result = page.locator("#tsd-search-results a", { hasText: "listComponentPorts" }).first();
    await result.waitFor();
    const found = await follow(page, result);
    expect(found.url()).toMatch(/\/guide\/variables\/listComponentPorts\.html$/);
    const text = (await found.locator(".tsd-panel, .col-content").first().textContent()) ?? "";
    expect(text).toContain("Import it from rainbond-openapi/operations");
    const link = found.locator('a[href$="index.html#/ports/listcomponentports"]').first();
    expect(await link.getAttribute("href")).toBe("../../index.html#/ports/listcomponentports");
    expect(guard.problems()).toEqual([]);
  });

  it("lists every finding of the departures page whole in its page navigation, code included, in order", async () => {
    const markdown = await readFile(join(root, "docs/console-departures.md"), "utf8");
    // the page's title, then its findings
    const headings = [...markdown.matchAll(/^##? (.+)$/gm)].map(([, heading]) => heading!.replace(/`/g, ""));
    expect(headings.join("\n")).toContain("requires is_inner_service; the client sends false");
    const numbers = headings.map((heading) => Number(/^(\d+)\./.exec(heading)?.[1])).filter(Boolean);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1)); // no finding left out of its place
    const page = await context.newPage();
    await page.goto(new URL("documents/Where_the_console_departs_from_its_documentation.html", site.guide).href);
    const entries = await page.locator(".tsd-page-navigation a").allTextContents();
    expect(entries.map((text) => text.trim())).toEqual(headings);
    // and each entry leads to its heading: the first finding's
    const first = page.locator(".tsd-page-navigation a").nth(1); // after the title
    const id = decodeURIComponent((await first.getAttribute("href"))!.slice(1));
    expect(await page.locator(`[id="${id}"]`).textContent()).toContain("is_inner_service");
    expect(guard.problems()).toEqual([]);
  });

  it(
    "speaks to callers in the reference's intro, and shows the port field's rule in words",
    { timeout: 60_000 },
    async () => {
      const page = await openReference(site.reference);
      const intro = (spec.info as Json).description as string;
      expect(intro).not.toMatch(/transcri|spec\/README/i);
      await page.getByText("Where the console departs from its own documentation").first().waitFor();
      const update = operations.find((op) => op.operationId === "updateComponentPort")!;
      await openOperation(page, update);
      const section = page.locator(`[id="${referenceId(update)}"]`);
      await section.getByText("a port number from 1 to 65535").first().waitFor({ state: "visible" });
      expect(await section.textContent()).not.toContain("6553[0-5]");
      // the download keeps the pattern
      expect(await readFile(join(site.outDir, "openapi.json"), "utf8")).toContain("6553[0-5]");
      expect(guard.problems()).toEqual([]);
    },
  );
});
