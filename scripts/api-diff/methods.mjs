// Which client methods call each operation: read from the client's own table (src/endpoints.ts, `endpoints`), so the
// changelog names `ports.list` rather than a path, and nothing here repeats the table. The table is a TypeScript
// module that imports generated/operations.ts: scripts/import-bundled.mjs loads it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { importBundled } from "../import-bundled.mjs";

/**
 * operationId -> the client's method names (`area.method`) that call it, from `<dir>/src/endpoints.ts`; an empty map
 * when `dir` has no such table (a ref from before the client existed).
 * @returns {Promise<Map<string, string[]>>}
 */
export async function clientMethods(dir) {
  const entry = join(dir, "src", "endpoints.ts");
  const methods = new Map();
  if (!existsSync(entry)) return methods;
  const { endpoints } = await importBundled({ entryPoints: [entry] });
  for (const [area, table] of Object.entries(endpoints ?? {})) {
    for (const [name, endpoint] of Object.entries(table)) {
      const list = methods.get(endpoint.op) ?? [];
      list.push(`${area}.${name}`);
      methods.set(endpoint.op, list);
    }
  }
  return methods;
}
