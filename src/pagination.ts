// Iterating over pages.
import { operations } from "../generated/operations.js";
import type { RegionsApi } from "./api.js";
import { RainbondResponseError } from "./errors.js";
import type { CallOptions } from "./transport.js";

/** The console's page size when none is asked for (spec: `page_size` defaults to 10); sent, so a short page is sure. */
const DEFAULT_PAGE_SIZE = 10;

/**
 * Every region of a team across pages. Asks page after page and stops once it has seen `total` regions, or on a page
 * shorter than the page size (an empty one too). A page that repeats a region already yielded (a console that ignores
 * `page` answers page 1 again) throws RainbondResponseError, naming the page and the repeated ids, before any of that
 * page's regions is yielded: it would otherwise loop for as long as `total` allows.
 */
export async function* iterateForTeam(
  regions: Pick<RegionsApi, "listForTeam">,
  teamId: string,
  options: { query?: string; pageSize?: number } = {},
  call?: CallOptions,
) {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const { total, regions: items } = await regions.listForTeam(teamId, { ...options, pageSize, page }, call);
    const ids = items.map((region) => region.region_id ?? region.region_name); // the name, should a console omit the id
    const repeated = ids.filter((id) => seen.has(id));
    if (repeated.length) throw repeats(teamId, page, repeated);
    yield* items;
    for (const id of ids) seen.add(id);
    if (items.length < pageSize || seen.size >= total) return;
  }
}

function repeats(teamId: string, page: number, ids: string[]) {
  const info = {
    operation: "regions.listForTeam",
    method: "GET",
    path: operations.listTeamRegions.path.replace("{team_id}", encodeURIComponent(teamId)),
  };
  const shown = ids.length > 5 ? `${ids.slice(0, 5).join(", ")} and ${ids.length - 5} more` : ids.join(", ");
  const problem = `page ${page} repeating regions already yielded (does the console ignore \`page\`?), so iterateForTeam stops`;
  return new RainbondResponseError(info, 200, `region_id ${shown}`, problem);
}
