// Iterators over pages (the spec's `x-rainbond-paging`), e.g. `regions.iterateForTeam`: page after page of an
// operation, bounded, and refusing a console that repeats itself or sends a malformed page.
import { RainbondInputError, RainbondResponseError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import type { RainbondCore, RainbondPromise } from "../core/promise.js";
import type { OperationSpec, Paging } from "../core/table.js";
import { shown } from "./validate.js";

/** The most items an iterator yields unless its `maxItems` option says otherwise. */
export const MAX_ITEMS = 10_000;
/** The page size asked for when the caller gives none (the spec's default, sent so that a short page is sure). */
const DEFAULT_PAGE_SIZE = 10;

type ItemOf<R, K extends keyof R> = R[K] extends readonly (infer I)[] | null | undefined ? I : never;

/**
 * The iterator of `fn`: asks page after page and stops once it has seen `total` items, or on a page shorter than the
 * page size. Throws RainbondResponseError, before yielding any of that page, on a page that is not an object with an
 * array of items or that repeats an item already yielded (a console that ignores the page number), and when more
 * than `maxItems` (default 10,000) items come: a console that never ends does not hold the caller.
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
    const { maxItems = MAX_ITEMS, ...options } = given;
    if (!(Number.isSafeInteger(maxItems) && (maxItems as number) > 0)) {
      throw new RainbondInputError(p.name, "options.maxItems", "must be a positive integer", "type");
    }
    if (options[p.page] !== undefined)
      throw new RainbondInputError(p.name, `options.${p.page}`, "is set by the iterator", "fixed");
    const pageSize = Number(options[p.pageSize] ?? DEFAULT_PAGE_SIZE);
    const method = p.name.slice(p.name.indexOf(".") + 1);
    const seen = new Set<unknown>();
    for (let page = 1; ; page++) {
      const pageArgs = Object.assign([...args], { [at]: { ...options, [p.pageSize]: pageSize, [p.page]: page } }) as A;
      const { data: answer, response } = await fn(core, ...pageArgs).withResponse();
      const info = { operation: spec.name, method: spec.method, path: new URL(response.url, "http://x").pathname };
      const bad = (problem: string, excerpt: string) =>
        new RainbondResponseError(info, response.status, excerpt, problem);
      const items = isRecord(answer) ? answer[p.items] : undefined;
      if (!Array.isArray(items)) throw bad(`page ${page} without an array of ${p.items}`, shown(answer));
      const ids = items.map((item) => (isRecord(item) ? p.id.map((key) => item[key]).find((v) => v != null) : item));
      const repeated = ids.filter((id) => seen.has(id));
      if (repeated.length) {
        const list = repeated.slice(0, 5).join(", ") + (repeated.length > 5 ? ` and ${repeated.length - 5} more` : "");
        const asked = spec.options?.[p.page];
        const problem = `page ${page} repeating ${p.items} already yielded (does the console ignore \`${asked}\`?), so ${method} stops`;
        throw bad(problem, `${p.id[0]} ${list}`);
      }
      if (seen.size + items.length > (maxItems as number)) {
        throw bad(`more than ${maxItems} ${p.items}, the iterator's maxItems`, `page ${page}`);
      }
      yield* items as ItemOf<R, K>[];
      for (const id of ids) seen.add(id);
      const total = isRecord(answer) ? answer[p.total] : undefined;
      if (items.length < pageSize || (typeof total === "number" && seen.size >= total)) return;
    }
  };
}
