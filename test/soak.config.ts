// `npm run soak`: the soak project alone (see vitest.config.ts), its figures printed at the end. Not part of `npm test`:
// how long thousands of calls take through random faults is what a busy machine changes.
import { defineConfig } from "vitest/config";
import { filesOf } from "../vitest.config.ts";

export default defineConfig({
  test: {
    name: "soak",
    root: new URL("..", import.meta.url).pathname,
    include: filesOf("soak"),
    reporters: ["./test/progress-reporter.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
