// regions.iterateForTeam against consoles of our own that page in odd ways: a short page ends the walk, `total` still
// does, and a console that ignores `page` (or repeats a page) gets a RainbondResponseError naming the page and the
// repeated ids, after the regions it had, instead of a loop for as long as `total` allows.
import { describe, expect, it } from "vitest";
import { createRainbondClient, RainbondError, RainbondResponseError } from "../../src/index.js";
import { useFaultServer, type SeenRequest } from "./server.js";
import { TOKEN, paths, rejection, team } from "./helpers.js";

/** The regions the team has on the console, and how the console answers a page of them. */
const names = (n: number) => Array.from({ length: n }, (_, i) => `r${i + 1}`);
const region = (name: string) => ({ region_id: `id-${name}`, region_name: name, token: null });
type Pager = (request: SeenRequest) => { total: number; regions: ReturnType<typeof region>[] };

/** Pages as it should: `page` and `page_size` (default 10) cut `all`; `total` is what `claims` says. */
const paging =
  (all: string[], claims = all.length): Pager =>
  ({ query }) => {
    const page = Number(query.get("page") ?? 1);
    const size = Number(query.get("page_size") ?? 10);
    return { total: claims, regions: all.slice((page - 1) * size, page * size).map(region) };
  };

let pager: Pager;
const server = useFaultServer((request) => ({ body: pager(request) }));

const client = () => createRainbondClient({ baseUrl: server.url, token: TOKEN, logLevel: "off" });
const pagesAsked = () =>
  server.requests.map((r) => {
    expect(r.pathname).toBe(paths.teamRegions);
    return Object.fromEntries(r.query);
  });

/** Walks the iterator, keeping what it yielded, and its error if it threw one. */
async function walk(options?: { pageSize?: number }) {
  const yielded: string[] = [];
  let error: unknown;
  try {
    for await (const r of client().regions.iterateForTeam(team, options)) yielded.push(r.region_name);
  } catch (err) {
    error = err;
  }
  return { yielded, error };
}

describe("regions.iterateForTeam and odd paging", () => {
  it("a short page ends it, though total promised more", async () => {
    pager = paging(names(5), 50);
    const { yielded, error } = await walk({ pageSize: 2 });
    expect(error).toBeUndefined();
    expect(yielded).toEqual(names(5));
    expect(pagesAsked()).toEqual([
      { page: "1", page_size: "2" },
      { page: "2", page_size: "2" },
      { page: "3", page_size: "2" },
    ]);
  });

  it("without pageSize it asks for the console's default, 10, and a page shorter than that ends it", async () => {
    pager = paging(names(13), 100);
    const { yielded, error } = await walk();
    expect(error).toBeUndefined();
    expect(yielded).toEqual(names(13));
    expect(pagesAsked()).toEqual([
      { page: "1", page_size: "10" },
      { page: "2", page_size: "10" },
    ]);
  });

  it("total reached ends it, even when the last page is full and the console has more", async () => {
    pager = paging(names(8), 4);
    const { yielded, error } = await walk({ pageSize: 2 });
    expect(error).toBeUndefined();
    expect(yielded).toEqual(names(4));
    expect(pagesAsked()).toHaveLength(2);
  });

  it("a console that ignores `page`: the first page's regions, then a RainbondResponseError naming page 2 and the ids", async () => {
    pager = ({ query }) => ({
      total: 1000,
      regions: names(Number(query.get("page_size"))).map(region), // page 1, whatever page was asked for
    });
    const { yielded, error } = await walk({ pageSize: 3 });
    expect(yielded).toEqual(names(3));
    expect(error).toBeInstanceOf(RainbondResponseError);
    expect(error).toBeInstanceOf(RainbondError);
    expect(error).toMatchObject({
      operation: "regions.listForTeam",
      method: "GET",
      path: paths.teamRegions,
      status: 200,
    });
    expect((error as Error).message).toBe(
      `regions.listForTeam (GET ${paths.teamRegions}) answered 200 with page 2 repeating regions already yielded ` +
        "(does the console ignore `page`?), so iterateForTeam stops: region_id id-r1, id-r2, id-r3",
    );
    expect(pagesAsked()).toHaveLength(2);
  });

  it("a page that repeats an earlier one later on: the regions before it, then the error naming that page", async () => {
    const all = names(20);
    pager = ({ query }) => {
      const page = Number(query.get("page"));
      const served = page === 3 ? 2 : page; // page 3 answers page 2 again
      return { total: 20, regions: all.slice((served - 1) * 4, served * 4).map(region) };
    };
    const { yielded, error } = await walk({ pageSize: 4 });
    expect(yielded).toEqual(names(8));
    expect(error).toBeInstanceOf(RainbondResponseError);
    expect((error as Error).message).toMatch(/with page 3 repeating regions .*: region_id id-r5, id-r6, id-r7, id-r8$/);
    expect(pagesAsked()).toHaveLength(3);
  });

  it("names at most five repeated ids, and how many more", async () => {
    pager = () => ({ total: 1000, regions: names(8).map(region) });
    const err = await rejection(
      (async () => {
        for await (const _ of client().regions.iterateForTeam(team, { pageSize: 8 }));
      })(),
    );
    expect((err as Error).message).toMatch(/: region_id id-r1, id-r2, id-r3, id-r4, id-r5 and 3 more$/);
  });
});

describe("regions.iterateForTeam against a console that never ends or sends malformed pages", () => {
  it("stops with a RainbondResponseError past maxItems when every page brings fresh ids and total is huge", async () => {
    pager = ({ query }) => {
      const page = Number(query.get("page"));
      return { total: 1e12, regions: names(5).map((n) => region(`${n}-p${page}`)) };
    };
    const yielded: string[] = [];
    const err = await rejection(
      (async () => {
        for await (const r of client().regions.iterateForTeam(team, { pageSize: 5, maxItems: 12 })) {
          yielded.push(r.region_name);
        }
      })(),
    );
    expect(err).toBeInstanceOf(RainbondResponseError);
    expect((err as Error).message).toMatch(/more than 12 regions, the iterator's maxItems/);
    expect(yielded).toHaveLength(10); // two whole pages; the third would pass the bound and is not yielded
    expect(pagesAsked()).toHaveLength(3);
  });

  it("has a default bound of 10,000 regions", async () => {
    pager = ({ query }) => ({
      total: 1e12,
      regions: names(1000).map((n) => region(`${n}-p${query.get("page")}`)),
    });
    let count = 0;
    const err = await rejection(
      (async () => {
        for await (const _ of client().regions.iterateForTeam(team, { pageSize: 1000 })) count++;
      })(),
    );
    expect((err as Error).message).toMatch(/more than 10000 regions/);
    expect(count).toBe(10_000);
  });

  it.each([
    ["regions: null", { total: 3, regions: null }],
    ["regions: {}", { total: 3, regions: {} }],
    ["no regions", { total: 3 }],
  ])("a page with %s is a RainbondResponseError, not a TypeError", async (_, body) => {
    pager = () => body as never;
    const { yielded, error } = await walk();
    expect(yielded).toEqual([]);
    expect(error).toBeInstanceOf(RainbondResponseError);
    expect((error as Error).message).toMatch(/with page 1 without an array of regions/);
  });

  it("refuses a maxItems that is not a positive integer, and a page given by the caller, before asking", async () => {
    for (const options of [{ maxItems: 0 }, { maxItems: 1.5 }, { page: 2 }]) {
      const err = await rejection(
        (async () => {
          for await (const _ of client().regions.iterateForTeam(team, options as never));
        })(),
      );
      expect(err).toMatchObject({ name: "RainbondInputError" });
    }
    expect(server.requests).toHaveLength(0);
  });
});
