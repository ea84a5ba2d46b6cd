// The runtime matrix's own logic, without installing a runtime: how a row's outcome is judged and printed, that a row
// whose runtime cannot be installed or started fails naming it (never a skip), and that package.json says what the
// matrix tests. `npm run test:runtimes` runs the real thing (docs/runtimes.md).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { root } from "../../../scripts/lib/script.ts";
import { parseReport } from "../../../scripts/runtimes/entries.ts";
import { chromiumVersion, judge, matrixRows, PINNED, runRows } from "../../../scripts/runtimes/matrix.ts";
import type { MatrixContext, Outcome } from "../../../scripts/runtimes/matrix.ts";
import { REPORT_MARK, type SmokeReport } from "../../../scripts/runtimes/smoke.ts";

/** The version of a pinned spec such as "deno@2.9.6". */
const versionOf = (spec: string) => spec.slice(spec.lastIndexOf("@") + 1);

const report = (runtime: string, failing: string[] = []): SmokeReport => ({
  runtime,
  inspect: true,
  ok: failing.length === 0,
  checks: ["a scoped GET returns the component", ...failing].map((name, i) =>
    i === 0 ? { name, ok: true } : { name, ok: false, detail: `${name} went wrong` },
  ),
});

/** A context whose every command and install is refused, and which records what was asked. */
function refusingContext(reason: string): MatrixContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    run: async (file) => {
      asked.push(`run ${file}`);
      throw new Error(`${file} failed: ${reason}`);
    },
    install: async (spec) => {
      asked.push(`install ${spec}`);
      throw new Error(`could not install ${spec} from the npm registry into /cache/${spec}: ${reason}`);
    },
    consumerDir: "/nonexistent/consumer",
    chromium: async () => {
      throw new Error(`Chromium did not start: ${reason}`);
    },
    typescripts: PINNED.typescript,
  };
}

describe("a row's outcome", () => {
  test("is read from the report line among whatever else the runtime printed", () => {
    const printed = `a warning\n${REPORT_MARK}${JSON.stringify(report("deno 2.9.6"))}\nmore\n`;
    expect(parseReport(printed)).toEqual(report("deno 2.9.6"));
    expect(() => parseReport("Segmentation fault\n")).toThrow(/printed no smoke report:\nSegmentation fault/);
  });

  test("passes when every check passed in the runtime the row started", () => {
    const outcome = judge(report("bun 1.4.4"), "bun 1.4.4");
    expect(outcome).toEqual({ ok: true, summary: "1/1 checks in bun 1.4.4", problems: [] });
  });

  test("fails naming each failed check, and a report from another runtime than the one meant", () => {
    const outcome = judge(report("node 20.20.2", ["a timeout"]), "node 22.23.3");
    expect(outcome.ok).toBe(false);
    expect(outcome.problems).toEqual(["ran in node 20.20.2, not in node 22.23.3", "a timeout: a timeout went wrong"]);
  });
});

describe("the run", () => {
  test("prints a line per row naming its runtime, with its time and the problems of a failed one, and last `N passed, N failed`", async () => {
    const lines: string[] = [];
    const rows = [
      { name: "node 22.23.3 ESM", run: async (): Promise<Outcome> => ({ ok: true, summary: "7/7", problems: [] }) },
      {
        name: "edge-runtime 4.0.1",
        run: async (): Promise<Outcome> => {
          throw new Error('the package does not bundle for the edge runtime: Could not resolve "node:fs"');
        },
      },
    ];
    const outcomes = await runRows(rows, (line) => lines.push(line));
    expect(outcomes.map((o) => o.ok)).toEqual([true, false]);
    const printed = lines.join("\n").split("\n");
    expect(printed[0]).toMatch(/^ok {4}node 22\.23\.3 ESM +7\/7 \[\d+\.\d s\]$/);
    expect(printed[1]).toMatch(/^FAIL {2}edge-runtime 4\.0\.1 +failed to run \[\d+\.\d s\]$/);
    expect(printed[2]).toBe(
      '        edge-runtime 4.0.1: the package does not bundle for the edge runtime: Could not resolve "node:fs"',
    );
    expect(printed.at(-1)).toBe("1 passed, 1 failed");
  });

  test("a runtime that cannot be installed fails its rows, naming it: nothing is skipped", async () => {
    const ctx = refusingContext("ENOTCACHED");
    const rows = matrixRows(ctx);
    const lines: string[] = [];
    const outcomes = await runRows(rows, (line) => lines.push(line));
    const failedNames = rows.filter((_, i) => !outcomes[i]!.ok).map((r) => r.name);
    expect(failedNames).toEqual(rows.map((r) => r.name));
    expect(lines.at(-1)).toBe(`0 passed, ${rows.length} failed`);
    const text = lines.join("\n");
    const needed = new Set(rows.flatMap((row) => row.needs));
    // two of the Nodes, Bun, Deno, the edge runtime and three TypeScripts (the third Node is the one running this)
    expect(needed.size).toBe(8);
    for (const spec of needed) expect(text).toContain(`could not install ${spec} from the npm registry`);
    const deno = versionOf(PINNED.deno);
    expect(text).toContain(`\n        deno ${deno} ESM: could not install deno@${deno} `);
    expect(text).toContain(`\n        chromium ${chromiumVersion}: Chromium did not start: ENOTCACHED\n`);
    const ts = PINNED.typescript.at(-1)!;
    expect(text).toContain(`\n        typescript ${ts} bundler: could not install typescript@${ts} `);
  });
});

describe("the matrix", () => {
  const rows = matrixRows(refusingContext("unused"));

  test("has every runtime the package claims, ESM and CommonJS where both exist, and each TypeScript twice", () => {
    const host = process.versions.node;
    expect(rows.map((r) => r.name)).toEqual([
      ...Object.keys(PINNED.node).flatMap((major) => {
        const version = host.startsWith(`${major}.`) ? host : versionOf(PINNED.node[major as "20"]);
        return [`node ${version} ESM`, `node ${version} CommonJS`];
      }),
      `bun ${versionOf(PINNED.bun)} ESM`,
      `bun ${versionOf(PINNED.bun)} CommonJS`,
      `deno ${versionOf(PINNED.deno)} ESM`,
      `edge-runtime ${versionOf(PINNED.edge)}`,
      `chromium ${chromiumVersion}`,
      ...PINNED.typescript.flatMap((v) => [`typescript ${v} nodenext`, `typescript ${v} bundler`]),
    ]);
  });

  test("installs only pinned versions from the registry", () => {
    for (const spec of rows.flatMap((r) => r.needs)) expect(spec).toMatch(/^(@[\w-]+\/)?[\w-]+@\d+\.\d+\.\d+$/);
  });

  test('package.json "engines" starts at the oldest Node the matrix runs, and stays out of the runtimes', () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      engines: { node: string };
      devDependencies: Record<string, string>;
    };
    const oldest = Math.min(...Object.keys(PINNED.node).map(Number));
    expect(manifest.engines).toEqual({ node: `>=${oldest}` });
    for (const spec of [PINNED.bun, PINNED.deno, PINNED.edge, PINNED.node["22"]]) {
      expect(Object.keys(manifest.devDependencies)).not.toContain(spec.slice(0, spec.lastIndexOf("@")));
    }
  });
});
