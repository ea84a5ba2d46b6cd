// Three projects (issue 22 §3). `npm test` runs them all; `npm run test:unit` runs `unit` alone, in seconds.
// - unit: the library and the scripts' logic in this process: no child process, no Prism, no network but loopback
//   node:http servers the tests start in-process (the fault and recording servers).
// - mock: the tests that need the Prism mock of generated/openapi.json, started once, for this project only.
// - tooling: everything else, which spawns processes or builds: pack, registry rehearsal, docs site, runtimes,
//   pipeline, api-diff CLI, start-serve, bench, verify, and the type tests (run by tsc). A new test file lands here
//   until it is listed in `unit` or `mock`.
// npm's scripts start vitest through test/vitest.mjs, which keeps colour codes out of logs that are not a terminal.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const unit = [
  "test/api-diff/mutations.test.ts",
  "test/api-diff/overlay.test.ts",
  "test/api-diff/rules.test.ts",
  "test/console/findings.test.ts",
  "test/envelope.test.ts",
  "test/ergonomics.test.ts",
  "test/faults/hostile.test.ts",
  "test/faults/inputs.test.ts",
  "test/faults/logging.test.ts",
  "test/faults/options.test.ts",
  "test/faults/paging.test.ts",
  "test/faults/responses.test.ts",
  "test/faults/retries.test.ts",
  "test/faults/shared-signal.test.ts",
  "test/input.test.ts",
  "test/methods-page.test.ts",
  "test/methods-table.test.ts",
  "test/operation-functions.test.ts",
  "test/runtimes/matrix.test.ts",
  "test/secrets.test.ts",
  "test/spec-fields.test.ts",
  "test/transport.test.ts",
];

const mock = [
  "test/cli/mock.test.ts",
  "test/docs-errors.test.ts",
  "test/docs-operations.test.ts",
  "test/docs-samples.test.ts",
  "test/mcp/clients.test.ts",
  "test/mcp/conformance.test.ts",
  "test/mcp/http.test.ts",
  "test/mcp/tools.test.ts",
  "test/operations.test.ts",
  "test/package/browser.test.ts",
  "test/package/pack.test.ts",
  "test/properties.test.ts",
  "test/readme-usage.test.ts",
  "test/runtimes/smoke.test.ts",
  "test/verify/verify.test.ts",
];

export default defineConfig({
  test: {
    // Most files wait on child processes and loopback servers rather than compute: two at a time even on two cores
    // (vitest's default there is one), which takes `npm test` from about 2 m 50 s to under 2 minutes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: unit } },
      { extends: true, test: { name: "mock", include: mock, globalSetup: ["test/setup/prism.ts"] } },
      {
        extends: true,
        test: {
          name: "tooling",
          include: ["test/**/*.test.ts"],
          exclude: [...unit, ...mock],
          typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "test/tsconfig.json" },
        },
      },
    ],
  },
});
