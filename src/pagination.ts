// Iterating over pages.
import type { RegionsApi } from "./api.js";
import type { CallOptions } from "./transport.js";

/** Every region of a team across pages: asks page after page until it has seen `total` regions (or a page is empty). */
export async function* iterateForTeam(
  regions: Pick<RegionsApi, "listForTeam">,
  teamId: string,
  options: { query?: string; pageSize?: number } = {},
  call?: CallOptions,
) {
  let seen = 0;
  for (let page = 1; ; page++) {
    const { total, regions: items } = await regions.listForTeam(teamId, { ...options, page }, call);
    yield* items;
    seen += items.length;
    if (items.length === 0 || seen >= total) return;
  }
}
