// regions.iterateForTeam against consoles of our own that page in odd ways: a short page ends the walk, `total` still
// does, and a console that ignores `page` (or repeats a page) gets a RainbondResponseError naming the page and the
// repeated ids, after the regions it had, instead of a loop for as long as `total` allows. The console's text those
// errors quote is masked, escaped and cut; a console that never ends its pages meets the iterator's bounds in items,
// bytes and time (RainbondIterationLimitError).
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createRainbondClient,
  RainbondError,
  RainbondIterationLimitError,
  RainbondResponseError,
} from "../../../src/index.js";
import { LIMITS } from "../../../src/internal/pagination.js";
import { renderings, useFaultServer, type SeenRequest } from "../../helpers/faults/server.js";
import { TOKEN, expectNoSecrets, paths, rejection, team } from "./helpers.js";

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
    expect(err).toBeInstanceOf(RainbondIterationLimitError);
    expect(err).toMatchObject({ limit: "maxItems", maximum: 12, excerpt: "page 3" });
    expect((err as Error).message).toMatch(/more than 12 regions, the iterator's maxItems: page 3$/);
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
    const wrong = [
      { maxItems: 0 },
      { maxItems: 1.5 },
      { maxBytes: -1 },
      { maxBytes: "1e6" },
      { maxMs: 0 },
      { page: 2 },
    ];
    for (const options of wrong) {
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

/** The items the iterator yields, and what it threw (it must throw). */
async function walkToError(client: ReturnType<typeof createRainbondClient>, options: object) {
  const yielded: unknown[] = [];
  const err = await rejection(
    (async () => {
      for await (const r of client.regions.iterateForTeam(team, options as never)) yielded.push(r);
    })(),
  );
  return { yielded, err };
}

describe("the console's text in a paging error", () => {
  /** A console's id: the token, a screen clear and a window title, and 5 MB on one line. */
  const hostile = `${TOKEN}\x1b[2J\x1b]0;pwned\x07${"z".repeat(5_000_000)}`;
  /** What every rendering of `err` must show: no token, no raw ESC or BEL, no 5 MB. */
  function expectShownSafely(err: unknown) {
    expect(err).toBeInstanceOf(RainbondResponseError);
    expectNoSecrets(err, []);
    for (const text of renderings(err)) expect(text).not.toMatch(/[\x1b\x07]/);
    expect((err as Error).message.length).toBeLessThan(1_000);
    expect((err as RainbondResponseError).excerpt.length).toBeLessThan(1_000);
  }

  it("a repeating page's ids: masked, escaped and cut", async () => {
    pager = () => ({ total: 10, regions: [{ region_id: hostile, region_name: "r", token: null }] });
    const { yielded, err } = await walkToError(client(), { pageSize: 1 });
    expect(yielded).toHaveLength(1);
    expectShownSafely(err);
    expect((err as Error).message).toContain("region_id [redacted]\\x1b[2J\\x1b]0;pwned\\x07zzz");
  });

  it("a page without an array: the answer quoted masked, escaped and cut", async () => {
    pager = () => ({ total: 1, regions: `${TOKEN.toUpperCase()} ${hostile}` }) as never;
    const { yielded, err } = await walkToError(client(), {});
    expect(yielded).toHaveLength(0);
    expectShownSafely(err);
    expect((err as Error).message).toMatch(
      /without an array of regions: \{"total":1,"regions":"\[redacted\] \[redacted\]/,
    );
  });
});

describe("bounds in bytes and time: a console that never ends its pages", () => {
  afterEach(() => void vi.useRealTimers());

  /**
   * A client whose fetch answers every page with a full page of fresh regions named `pad`, claiming a trillion in all
   * (after `atMost` pages, an empty one: an iterator without the bound under test ends there, without error).
   */
  function endless(pad: string, onPage: () => void = () => {}, atMost = 2_000) {
    let pages = 0;
    const fetch: typeof globalThis.fetch = async (input) => {
      pages++;
      onPage();
      const url = new URL(String(input));
      const size = pages > atMost ? 0 : Number(url.searchParams.get("page_size"));
      const regions = Array.from({ length: size }, (_, i) => ({ region_id: `${pages}-${i}`, region_name: pad }));
      return new Response(JSON.stringify({ total: 1e12, regions }), {
        headers: { "content-type": "application/json" },
      });
    };
    const made = createRainbondClient({ baseUrl: "http://127.0.0.1:9", token: TOKEN, logLevel: "off", fetch });
    return { client: made, pages: () => pages };
  }

  it("by default, 1 MB items stop within 64 MiB, the page past it not yielded", async () => {
    const { client, pages } = endless("m".repeat(1_000_000), () => {}, 20);
    const { yielded, err } = await walkToError(client, { pageSize: 4 });
    expect(err).toBeInstanceOf(RainbondIterationLimitError);
    expect(err).toMatchObject({ limit: "maxBytes", maximum: 64 * 1024 * 1024 });
    expect((err as Error).message).toMatch(/more than 67108864 bytes of regions, the iterator's maxBytes: page 17$/);
    expect(yielded).toHaveLength(64); // 16 pages of 4 (64,001,xxx bytes); the 17th would pass 67,108,864
    expect(pages()).toBe(17);
  });

  it("maxBytes sets the bound: counted as the items' JSON in UTF-8", async () => {
    const { client } = endless("名".repeat(300)); // 900 bytes in UTF-8, 300 characters
    const { yielded, err } = await walkToError(client, { pageSize: 2, maxBytes: 5_000 });
    expect(err).toMatchObject({ limit: "maxBytes", maximum: 5_000 });
    expect(yielded).toHaveLength(4); // two pages of about 1,900 bytes; a third would pass 5,000
  });

  it("maxMs: no page is asked once that long was spent waiting for pages (on a fake clock)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { client, pages } = endless("r", () => vi.setSystemTime(Date.now() + 120_000)); // each page: 2 minutes
    const { yielded, err } = await walkToError(client, { pageSize: 5 });
    expect(err).toBeInstanceOf(RainbondIterationLimitError);
    expect(err).toMatchObject({ limit: "maxMs", maximum: LIMITS.maxMs, excerpt: "page 6 not asked" });
    expect((err as Error).message).toMatch(/more than 600000 ms waiting for regions, the iterator's maxMs/);
    expect([yielded.length, pages()]).toEqual([25, 5]);
  });

  it("maxMs counts the console's time only: a caller slow between items is not cut short", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { client, pages } = endless("r");
    let count = 0;
    const err = await rejection(
      (async () => {
        for await (const _ of client.regions.iterateForTeam(team, { pageSize: 10, maxMs: 1_000 } as never)) {
          vi.setSystemTime(Date.now() + 60_000); // a minute of the caller's own work per item
          count++;
        }
      })(),
    );
    expect(err).toMatchObject({ limit: "maxItems" }); // it ran to the item bound: the caller's hours never counted
    expect([count, pages()]).toEqual([10_000, 1_001]);
  });
});
