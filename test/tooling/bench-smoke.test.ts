// The per-call benchmark measures what it says: contender c, the client, is slowed on purpose by a busy wait of
// SLOW_MICROS of CPU before each fetch, and the figures scripts/bench/calls.ts reports (per contender, the ratios
// against plain fetch, openapi-fetch and the floor t, and what c adds with fetch stubbed) show that wait in c alone. A
// bench that reported constants, timed the wrong thing or paired the wrong rounds would fail here. The checks read CPU
// time, which a busy machine hardly moves, and bound wall time only from below (a busy machine only adds to it): the
// wall-clock figures and their ratios are what `npm run bench` reports, not what `npm test` asserts. A few seconds: a
// few rounds of a few calls. And an interrupted bench shows the time left, and leaves no work directory behind.
import { scriptArgs } from "../../scripts/lib/script.ts";
import { benchCalls } from "../../scripts/bench/calls.ts";
import { BUDGETS, bundle, byModule } from "../../scripts/bench/size.ts";
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { existsSync } from "node:fs";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../helpers/readme.js";

/**
 * The CPU time the slowed client spends before each call, in µs: far above what a call costs here (tens to hundreds of
 * µs). Its wall time is at least that, more on a busy machine: the checks bound wall times from below only.
 */
const SLOW_MICROS = 5_000;

describe("the per-call benchmark (scripts/bench/calls.ts)", () => {
  let dir = "";
  let result: Awaited<ReturnType<typeof benchCalls>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "rainbond-bench-test-"));
    const slowed = join(dir, "slowed-client.mjs"); // the contenders run through tsx: it imports the client's source
    await writeFile(
      slowed,
      `import { createRainbondClient as create } from ${JSON.stringify(pathToFileURL(join(root, "src/index.ts")).href)};
const spin = (micros) => { const from = process.cpuUsage(); for (let u = process.cpuUsage(from); u.user + u.system < micros; u = process.cpuUsage(from)); };
export function createRainbondClient(options) {
  const fetch = options.fetch ?? globalThis.fetch;
  return create({ ...options, fetch: (input, init) => (spin(${SLOW_MICROS}), fetch(input, init)) });
}
`,
    );
    result = await benchCalls({ rounds: 4, calls: 10, warmup: 5, stubRounds: 4, stubCalls: 10, client: slowed });
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("reports the slowed client's wait in its time per call, over the network and with fetch stubbed", () => {
    const { wall, cpu, stubbed } = result;
    for (const kind of ["get", "post"] as const) {
      expect(wall.c![kind].median).toBeGreaterThanOrEqual(SLOW_MICROS);
      expect(stubbed.wall.c![kind].median).toBeGreaterThanOrEqual(SLOW_MICROS);
      for (const measured of [cpu, stubbed.cpu]) {
        expect(measured.c![kind].median - measured.a![kind].median).toBeGreaterThan(SLOW_MICROS * 0.9);
        expect(measured.c![kind].median - measured.a![kind].median).toBeLessThan(SLOW_MICROS * 2);
        // the contenders not slowed: what a call costs, far below the wait
        for (const id of ["a", "t", "b"]) expect(measured[id]![kind].median, id).toBeLessThan(SLOW_MICROS / 2);
      }
      // what c adds with fetch stubbed is its wall time less the other's, per round: the wait is in it
      for (const pair of ["c/a", "c/b", "c/t"]) {
        const [c, other] = [stubbed.wall.c![kind].samples, stubbed.wall[pair[2]!]![kind].samples];
        expect(stubbed.added[pair]![kind].samples, pair).toEqual(c.map((v, i) => v - other[i]!));
      }
    }
  });

  it("shows it in the ratios against c (the floor t among them), per round", () => {
    for (const pair of ["c/a", "c/b", "c/t"]) expect(result.cpuRatios[pair]!.all.median, pair).toBeGreaterThan(2);
    // a ratio is taken per round (the same round of both contenders), then its median
    const { a, c } = result.wall;
    const perRound = c!.get.samples.map((v, i) => v / a!.get.samples[i]!);
    expect(result.ratios["c/a"]!.get.samples).toEqual(perRound);
  });
});

describe("the size by module (scripts/bench/size.ts)", () => {
  it("adds up to the bundle of one operation with its core, openapi-fetch not among its modules", async () => {
    const budget = BUDGETS["one operation with its core"];
    const oneOperation = await bundle(budget.entry, budget);
    const modules = byModule(oneOperation);
    const raw = modules.reduce((sum, m) => sum + m.raw, 0);
    expect(raw).toBeLessThanOrEqual(oneOperation.code.length + 1); // and a newline
    expect(raw).toBeGreaterThan(oneOperation.raw * 0.95); // the rest: the bundle's own glue (exports)
    expect(modules.map((m) => m.module)).toEqual(
      expect.arrayContaining(["src/internal/transport/send.ts", "src/core/errors.ts"]),
    );
    expect(modules.map((m) => m.module)).not.toContain("openapi-fetch");
    // what gzip loses without the transport is most of the transport's bytes, and less than the bundle
    const transport = modules.find((m) => m.module === "src/internal/transport/send.ts")!;
    expect(transport.gzip).toBeGreaterThan(transport.raw / 5);
    expect(transport.gzip).toBeLessThan(oneOperation.gzip);
  });
});

describe("npm run bench, interrupted", () => {
  it("shows the time left, removes its work directory on SIGTERM and exits as the signal asks (143)", async () => {
    const child = spawn(process.execPath, scriptArgs("scripts/bench.ts", "--smoke", "--only", "generation"), {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const started = new Promise<string>((resolve) =>
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
        const workDir = /^bench: work directory (\S+)$/m.exec(stderr)?.[1];
        if (workDir && /^bench: generation \(1\/1\), \d+:\d\d elapsed, about \d+:\d\d left$/m.test(stderr)) {
          resolve(join(root, workDir));
        }
      }),
    );
    const workDir = await started;
    expect(existsSync(workDir)).toBe(true);
    child.kill("SIGTERM");
    const [code] = await once(child, "close");
    expect(code, stderr).toBe(128 + 15);
    expect(existsSync(workDir)).toBe(false);
  });
});
