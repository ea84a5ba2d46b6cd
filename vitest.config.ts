// The test projects, one folder each (issues 22 §3, 37). `npm test` runs unit, mock and tooling; `npm run test:unit`
// runs unit alone, in seconds; `npm run soak` runs the soak (test/soak.config.ts: figures a busy machine moves, so
// not in `npm test`).
// - unit (test/unit/): the library and the scripts' logic in this process: no child process, no Prism, no bundling
//   of the spec, no network but loopback node:http servers the tests start in-process (the fault servers).
// - mock (test/mock/): the tests that need the Prism mock of generated/openapi.json, started once for the project.
// - tooling (test/tooling/): everything that spawns processes or builds: pack, registry rehearsal, docs site,
//   runtimes, pipeline, api-diff, start-serve, bench, verify, the command line, and the type tests (run by tsc).
// - soak (test/soak/): thousands of calls through random faults, with budgets from what the run measured.
// The command line's and the MCP server's bins are built once per run (test/setup/bins.ts), not by each file.
// npm's scripts start vitest through test/vitest.mjs, which keeps colour codes out of logs that are not a terminal;
// test/progress-reporter.ts says which file finished, with a count, when the output is not a terminal.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const TEST = "**/*.test.ts";

/** A project's test files: those of its folder. */
export const filesOf = (project: "unit" | "mock" | "tooling" | "soak") => [`test/${project}/${TEST}`];

export default defineConfig({
  test: {
    // Most files wait on child processes and loopback servers rather than compute: two at a time even on two cores
    // (vitest's default there is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The files of a worker share one module graph (not a fresh one each): the client, the spec, the SDKs and the
    // scripts' libraries are loaded once per worker rather than once per file. test:unit goes from about 15 s to 6,
    // and a sample of tooling files from 35 s of CPU to 27. Each file starts its own servers and puts back the timers,
    // mocks and environment it changed; the projects pass with their files shuffled.
    isolate: false,
    reporters: ["./test/progress-reporter.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: filesOf("unit"), testTimeout: 20_000 } },
      {
        extends: true,
        test: {
          name: "mock",
          include: filesOf("mock"),
          globalSetup: ["test/setup/prism.ts", "test/setup/bins.ts"],
          // processes and builds, two files at a time on a machine others share: time enough for a busy one
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: "tooling",
          include: filesOf("tooling"),
          globalSetup: ["test/setup/bins.ts"],
          typecheck: { enabled: true, include: ["test/tooling/**/*.test-d.ts"], tsconfig: "test/tsconfig.json" },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
