// Iterators over pages (the spec's `x-rainbond-paging`), e.g. `regions.iterateForTeam`: page after page of an
// operation, bounded in items, bytes and time, and refusing a console that repeats itself or sends a malformed page.
import { RainbondInputError, RainbondIterationLimitError, RainbondResponseError } from "../core/errors.js";
import type { IterationLimit } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import type { RainbondCore, RainbondPromise } from "../core/promise.js";
import { consoleText, redact } from "../core/redact.js";
import type { OperationSpec, Paging } from "../core/table.js";
import { transportOf } from "./call.js";

/**
 * Each bound of an iterator (its options, IterationLimits) and its default: 10,000 items; 64 MiB of items as JSON,
 * room for 10,000 items of 6 KB where a console's records take one or two; 10 minutes spent waiting for pages, a
 * thousand pages of ten at 0.6 s each.
 */
export const LIMITS: Readonly<Record<IterationLimit, number>> = {
  maxItems: 10_000,
  maxBytes: 64 * 1024 * 1024,
  maxMs: 600_000,
};
/** How an error past each bound says what there was more than (`more than 12 regions`, `... 64 bytes of regions`). */
const UNITS: Readonly<Record<IterationLimit, string>> = {
  maxItems: "",
  maxBytes: "bytes of ",
  maxMs: "ms waiting for ",
};
/** The page size asked for when the caller gives none (the spec's default, sent so that a short page is sure). */
const DEFAULT_PAGE_SIZE = 10;

type ItemOf<R, K extends keyof R> = R[K] extends readonly (infer I)[] | null | undefined ? I : never;

/**
 * The iterator of `fn`: asks page after page and stops once it has seen `total` items, or on a page shorter than the
 * page size. Throws RainbondResponseError, before yielding any of that page, on a page that is not an object with an
 * array of items or that repeats an item already yielded (a console that ignores the page number), and
 * RainbondIterationLimitError past one of its bounds (LIMITS): more than `maxItems` items or `maxBytes` bytes of them
 * (that page not yielded), or a next page due once `maxMs` have been spent waiting for pages (that page not asked).
 * The console's text its errors quote (an id, a page) is masked, cut and escaped like any other.
 */
export function paging<A extends unknown[], R, K extends keyof R & string>(
  fn: (core: RainbondCore, ...args: A) => RainbondPromise<R>,
  spec: OperationSpec,
  p: Paging<K>,
): (core: RainbondCore, ...args: unknown[]) => AsyncGenerator<ItemOf<R, K>, void, undefined> {
  const at = spec.args.findIndex((a) => a.kind === "options");
  return async function* (core, ...args) {
    const given = args[at] ?? {};
    if (!isRecord(given)) throw new RainbondInputError(p.name, "options", "must be an object", "type");
    const { maxItems, maxBytes, maxMs, ...options } = given;
    const bounds = { ...LIMITS };
    for (const limit of Object.keys(LIMITS) as IterationLimit[]) {
      const value = given[limit] ?? LIMITS[limit];
      if (!(Number.isSafeInteger(value) && (value as number) > 0)) {
        throw new RainbondInputError(p.name, `options.${limit}`, "must be a positive integer", "type");
      }
      bounds[limit] = value as number;
    }
    if (options[p.page] !== undefined)
      throw new RainbondInputError(p.name, `options.${p.page}`, "is set by the iterator", "fixed");
    const pageSize = Number(options[p.pageSize] ?? DEFAULT_PAGE_SIZE);
    const method = p.name.slice(p.name.indexOf(".") + 1);
    const secrets = transportOf(core)?.secrets ?? [];
    const seen = new Set<unknown>();
    let [bytes, waited] = [0, 0];
    for (let page = 1; ; page++) {
      const pageArgs = Object.assign([...args], { [at]: { ...options, [p.pageSize]: pageSize, [p.page]: page } }) as A;
      const asked = Date.now();
      const { data: answer, response } = await fn(core, ...pageArgs).withResponse();
      waited += Date.now() - asked;
      const info = { operation: spec.name, method: spec.method, path: new URL(response.url, "http://x").pathname };
      const bad = (problem: string, excerpt: string) =>
        new RainbondResponseError(info, response.status, excerpt, problem);
      const limited = (limit: IterationLimit, which: string) =>
        new RainbondIterationLimitError(
          info,
          response.status,
          which,
          `more than ${bounds[limit]} ${UNITS[limit]}${p.items}, the iterator's ${limit}`,
          { limit, maximum: bounds[limit] },
        );
      const items = isRecord(answer) ? answer[p.items] : undefined;
      if (!Array.isArray(items)) {
        const quoted = JSON.stringify(redact(answer, secrets)) ?? String(answer);
        throw bad(`page ${page} without an array of ${p.items}`, consoleText(quoted, secrets, 200));
      }
      const ids = items.map((item) => (isRecord(item) ? p.id.map((key) => item[key]).find((v) => v != null) : item));
      const repeated = ids.filter((id) => seen.has(id));
      if (repeated.length) {
        const each = repeated.slice(0, 5).map((id) => consoleText(String(id), secrets, 60));
        const list = each.join(", ") + (repeated.length > 5 ? ` and ${repeated.length - 5} more` : "");
        const asked = spec.options?.[p.page];
        const problem = `page ${page} repeating ${p.items} already yielded (does the console ignore \`${asked}\`?), so ${method} stops`;
        throw bad(problem, `${p.id[0]} ${list}`);
      }
      if (seen.size + items.length > bounds.maxItems) throw limited("maxItems", `page ${page}`);
      bytes += new TextEncoder().encode(JSON.stringify(items)).length;
      if (bytes > bounds.maxBytes) throw limited("maxBytes", `page ${page}`);
      yield* items as ItemOf<R, K>[];
      for (const id of ids) seen.add(id);
      const total = isRecord(answer) ? answer[p.total] : undefined;
      if (items.length < pageSize || (typeof total === "number" && seen.size >= total)) return;
      if (waited >= bounds.maxMs) throw limited("maxMs", `page ${page + 1} not asked`);
    }
  };
}
