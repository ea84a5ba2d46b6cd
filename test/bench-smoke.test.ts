// The benchmarks' smoke mode runs end to end and writes every figure; nothing here is timed (no assertion on speed).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Every number under `node`, with its path; `mad` may be 0 (one sample), every other figure must be > 0. */
function numbers(node: unknown, path: string[] = []): { path: string; value: number; key: string }[] {
  if (typeof node === "number") return [{ path: path.join("."), value: node, key: path.at(-1) ?? "" }];
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([k, v]) => numbers(v, [...path, k]));
}

describe("npm run bench -- --smoke", () => {
  let dir = "";
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("writes every figure as a number > 0", { timeout: 300_000 }, async () => {
    await mkdir(join(root, ".bench"), { recursive: true });
    dir = await mkdtemp(join(root, ".bench", "smoke-test-"));
    const json = join(dir, "results.json");
    const { code, output } = await run(["scripts/bench.mjs", "--smoke", "--json", json]);
    expect(code, output).toBe(0);
    // not a terminal: a line as each part starts
    const parts = ["calls", "size", "generation", "typecheck", "scale"];
    expect(output.match(/^bench: \w+ \(\d\/\d\)\.\.\.$/gm)).toEqual(parts.map((p, i) => `bench: ${p} (${i + 1}/5)...`));
    const r = JSON.parse(await readFile(json, "utf8"));
    const withClient = existsSync(join(root, "src/index.ts"));
    expect(r.withClient).toBe(withClient);

    // The figures the issue asks for, each present.
    const contenders = withClient ? ["a", "b", "c", "t"] : ["a", "b", "t"];
    expect(Object.keys(r.calls.contenders).sort()).toEqual(contenders);
    for (const id of contenders) {
      expect(r.calls.contenders[id].getMicros.median).toBeGreaterThan(0);
      expect(r.calls.contenders[id].postMicros.median).toBeGreaterThan(0);
    }
    const ratios = withClient ? ["b/a", "c/a", "c/b", "c/t", "t/a"] : ["b/a", "t/a"];
    expect(Object.keys(r.calls.ratios).sort()).toEqual(ratios);
    for (const ratio of ratios) {
      for (const kind of ["get", "post", "all"]) expect(r.calls.ratios[ratio][kind].median).toBeGreaterThan(0);
    }
    const bundles = withClient ? ["client", "clientWithoutOpenapiFetch", "openapi-fetch"] : ["openapi-fetch"];
    expect(Object.keys(r.size).sort()).toEqual(bundles);
    for (const b of bundles) {
      expect(r.size[b].raw).toBeGreaterThan(0);
      expect(r.size[b].gzip).toBeGreaterThan(0);
    }
    if (withClient) {
      // where the client's bytes go: every module of the bundle, which together make up (almost) all of it
      const modules = r.size.client.byModule as { module: string; raw: number; gzip: number }[];
      expect(modules.map((m) => m.module)).toEqual(expect.arrayContaining(["openapi-fetch", "src/client.ts"]));
      const raw = modules.reduce((sum, m) => sum + m.raw, 0);
      expect(raw).toBeLessThanOrEqual(r.size.client.raw);
      expect(raw).toBeGreaterThan(r.size.client.raw * 0.95);
    }
    for (const command of ["generate", "check", "checkNode"]) {
      expect(r.generation[command].wallMs.median).toBeGreaterThan(0);
      for (const step of ["load", "lint", "bundle", "types", "format-ts"]) {
        expect(r.generation[command].stepsMs[step].median, `${command} ${step}`).toBeGreaterThan(0);
      }
    }
    const programs = withClient ? ["client", "openapiFetch", "schemaOnly"] : ["openapiFetch", "schemaOnly"];
    expect(Object.keys(r.typecheck).sort()).toEqual(programs);
    for (const p of programs) {
      for (const figure of ["instantiations", "types", "files"]) expect(r.typecheck[p][figure]).toBeGreaterThan(0);
      expect(r.typecheck[p].checkMs.median).toBeGreaterThan(0);
      expect(r.typecheck[p].totalMs.median).toBeGreaterThan(0);
    }
    const scales = Object.values(r.scale) as any[];
    expect(scales.length).toBeGreaterThan(0);
    for (const s of scales) {
      expect(s.operations).toBe(17 * s.factor);
      expect(s.generation.generate.wallMs.median).toBeGreaterThan(0);
      expect(s.generation.check.wallMs.median).toBeGreaterThan(0);
      expect(s.typecheck.schemaOnly.instantiations).toBeGreaterThan(0);
      expect(s.typecheck.openapiFetch.checkMs.median).toBeGreaterThan(0);
    }

    for (const pair of withClient ? ["b-a", "c-a", "c-b"] : ["b-a"]) {
      for (const kind of ["get", "post"])
        expect(Number.isFinite(r.calls.stubbed.addedMicros[pair][kind].median)).toBe(true);
    }

    // And no figure anywhere is 0, negative or NaN (a step's own time can round to 0 ms, and a difference between
    // two contenders or two bundles can be 0 or below: those are only required to be numbers).
    const bad = numbers(r).filter(({ path, value, key }) =>
      path.includes("stepsMs") || path.includes("addedMicros") || path.includes("byModule")
        ? !Number.isFinite(value)
        : !(key === "mad" || key.startsWith("loadAverage") ? value >= 0 : value > 0),
    );
    expect(bad).toEqual([]);
  });
});

describe("npm run bench, interrupted", () => {
  it("removes its work directory on SIGTERM and exits as the signal asks (143)", { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ["scripts/bench.mjs", "--smoke", "--only", "generation"], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const started = new Promise<string>((resolve) =>
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
        const workDir = /^bench: work directory (\S+)$/m.exec(stderr)?.[1];
        if (workDir && stderr.includes("bench: generation (1/1)...")) resolve(join(root, workDir));
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
