// What the browser tests know about the spec and about the page Redoc 3 renders from it.
import type { Locator, Page } from "playwright-core";

type Json = Record<string, unknown>;

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of the spec, in document order, with its first tag. */
export function operationsOf(spec: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      operations.push({
        method,
        path,
        operationId: String(op.operationId),
        summary: String(op.summary),
        tag: String((op.tags as string[])[0]),
      });
    }
  }
  return operations;
}

function resolve(spec: Json, schema: Json): Json {
  let current = schema;
  const seen = new Set<string>();
  while (typeof current.$ref === "string" && !seen.has(current.$ref)) {
    seen.add(current.$ref);
    current = current.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<Json>((node, key) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")] as Json, spec);
  }
  return current;
}

/**
 * How deep `field` sits in a schema: 0 for one of its own properties (or of its array's items, which Redoc shows at
 * the same level), 1 for a property of a property, and so on; undefined when it is not there.
 */
function depthOf(spec: Json, schema: Json | undefined, field: string, seen = new Set<Json>()): number | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  const resolved = resolve(spec, schema);
  if (seen.has(resolved)) return undefined;
  seen.add(resolved);
  const properties = (resolved.properties ?? {}) as Record<string, Json>;
  if (field in properties) return 0;
  const depths: number[] = [];
  for (const key of ["items", "additionalProperties"]) {
    const d = depthOf(spec, resolved[key] as Json, field, seen);
    if (d !== undefined) depths.push(d);
  }
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    for (const member of (resolved[key] ?? []) as Json[]) {
      const d = depthOf(spec, member, field, seen);
      if (d !== undefined) depths.push(d);
    }
  }
  for (const property of Object.values(properties)) {
    const d = depthOf(spec, property, field, seen);
    if (d !== undefined) depths.push(d + 1);
  }
  return depths.length ? Math.min(...depths) : undefined;
}

/**
 * The operation whose first response (the one Redoc shows first) has `field` closest to the top of its JSON body, so
 * that Redoc shows it without the test having to open nested schemas.
 */
export function operationShowing(spec: Json, field: string): Operation | undefined {
  let best: { op: Operation; depth: number } | undefined;
  for (const op of operationsOf(spec)) {
    const responses = ((spec.paths as Record<string, Json>)[op.path]![op.method] as Json).responses as Json;
    const first = Object.keys(responses)[0];
    if (!first) continue;
    const response = resolve(spec, responses[first] as Json);
    const schema = ((response.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema as Json;
    const depth = depthOf(spec, schema, field);
    if (depth !== undefined && (!best || depth < best.depth)) best = { op, depth };
  }
  return best?.op;
}

/**
 * Waits until Redoc has hydrated its server-rendered page. Before that the sidebar's links are plain anchors to
 * paths such as /regions (which from file:// lead nowhere); after it they route within the page (#/regions).
 * The "API docs by Redocly" badge is drawn by an effect, and effects run only once the page is hydrated.
 */
export async function waitForRedoc(page: Page): Promise<void> {
  await page.locator('img[alt="redocly logo"]').waitFor({ state: "attached" });
}

/** The sidebar's menu. */
export function sidebar(page: Page): Locator {
  return page.locator('[data-component-name="Menu/Menu"]').first();
}

/** The label of the sidebar entry (tag or operation) that reads exactly `text`. */
export function sidebarEntry(page: Page, text: string): Locator {
  return sidebar(page).locator(`span[data-text=${JSON.stringify(text)}]`);
}

/**
 * Opens a tag's group in the sidebar, if it is closed (Redoc keeps one open at a time), and returns the labels of the
 * operations it shows.
 */
export async function expandTag(page: Page, tag: string): Promise<string[]> {
  const group = sidebar(page)
    .locator(".menu-item-type-group")
    .filter({ has: page.locator(`:scope > a span[data-text=${JSON.stringify(tag)}]`) });
  const labels = group.locator(".menu-item-type-operation span[data-text]");
  if (!(await labels.first().isVisible())) await sidebarEntry(page, tag).click();
  await labels.first().waitFor({ state: "visible" });
  return (await labels.allTextContents()).map((text) => text.trim());
}

/** Goes to an operation through the sidebar and waits for its heading in the page. */
export async function openOperation(page: Page, op: Operation): Promise<void> {
  await expandTag(page, op.tag);
  await sidebarEntry(page, op.summary).click();
  await page
    .locator("h2")
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(op.summary)}\\s*$`) })
    .waitFor({ state: "visible" });
}

/**
 * The property names Redoc shows in schemas that are `field`, by itself or as the last part of a nested name
 * (Redoc writes nested ones as `parent[].field`).
 */
export function schemaProperty(page: Page, field: string): Locator {
  return page
    .locator(".schema-property-item .schema-name")
    .filter({ hasText: new RegExp(`(^|\\.\\W?)${escapeRegExp(field)}$`) });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
