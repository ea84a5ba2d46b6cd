// The test projects, one folder each (issues 22 §3, 37). `npm test` runs unit, mock and tooling; `npm run test:unit`
// runs unit alone, in seconds; `npm run soak` runs the soak (test/soak.config.ts: figures a busy machine moves, so
// not in `npm test`).
// - unit (test/unit/): the library and the scripts' logic in this process: no child process, no Prism, no bundling
//   of the spec, no network but loopback node:http servers the tests start in-process (the fault servers).
// - mock (test/mock/): the tests that need the Prism mock of generated/openapi.json, started once for the project.
// - tooling (test/tooling/): everything that spawns processes or builds: pack, registry rehearsal, docs site,
//   runtimes, pipeline, api-diff, start-serve, bench, verify, the command line, and the type tests (run by tsc).
// - soak (test/soak/): thousands of calls through random faults, with budgets from what the run measured.
// Until the files move into those folders (one mechanical commit: the list is in the lead's plan), each project also
// takes the files listed below where they are today; a file in neither a folder nor a list is tooling's.
// The command line's and the MCP server's bins are built once per run (test/setup/bins.ts), not by each file.
// npm's scripts start vitest through test/vitest.mjs, which keeps colour codes out of logs that are not a terminal;
// test/progress-reporter.ts says which file finished, with a count, when the output is not a terminal.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const TEST = "**/*.test.ts";

/** Files of each project not yet in its folder. */
const waiting = {
  unit: [
    "test/console/findings.test.ts",
    "test/envelope.test.ts",
    "test/ergonomics.test.ts",
    "test/faults/console-errors.test.ts",
    "test/faults/echoes.test.ts",
    "test/faults/hostile.test.ts",
    "test/faults/inputs.test.ts",
    "test/faults/logging.test.ts",
    "test/faults/options.test.ts",
    "test/faults/paging.test.ts",
    "test/faults/responses.test.ts",
    "test/faults/retries.test.ts",
    "test/faults/shared-signal.test.ts",
    "test/cli/output.test.ts",
    "test/input.test.ts",
    "test/mcp/confirm-expiry.test.ts",
    "test/mcp/shown-request.test.ts",
    "test/methods-table.test.ts",
    "test/operation-functions.test.ts",
    "test/release/versions.test.ts",
    "test/runtimes/matrix.test.ts",
    "test/secrets.test.ts",
    "test/spec-fields.test.ts",
    "test/transport.test.ts",
  ],
  mock: [
    "test/cli/mock.test.ts",
    "test/docs-samples.test.ts",
    "test/mcp/clients.test.ts",
    "test/mcp/conformance.test.ts",
    "test/mcp/http.test.ts",
    "test/mcp/tools.test.ts",
    "test/operations.test.ts",
    "test/package/browser.test.ts",
    "test/package/pack.test.ts",
    "test/properties.test.ts",
    "test/docs-operations.test.ts",
    "test/docs-errors.test.ts",
    "test/readme-usage.test.ts",
    "test/runtimes/smoke.test.ts",
    "test/verify/verify.test.ts",
  ],
  /** Run by test/soak.config.ts (`npm run soak`), never by `npm test`. */
  soak: ["test/faults/soak.test.ts"],
};
export const inFolderOrList = (name: keyof typeof waiting) => [`test/${name}/${TEST}`, ...waiting[name]];

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
      { extends: true, test: { name: "unit", include: inFolderOrList("unit"), testTimeout: 20_000 } },
      {
        extends: true,
        test: {
          name: "mock",
          include: inFolderOrList("mock"),
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
          include: [`test/tooling/${TEST}`, `test/${TEST}`],
          exclude: [...["unit", "mock", "soak"].map((name) => `test/${name}/**`), ...Object.values(waiting).flat()],
          globalSetup: ["test/setup/bins.ts"],
          typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "test/tsconfig.json" },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
