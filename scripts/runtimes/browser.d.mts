import type { RunResult } from "../../test/package/helpers.js";

export function importMapOf(
  consumerDir: string,
  run: (file: string, args: readonly string[], options?: { cwd?: string }) => Promise<RunResult>,
): Promise<Record<string, string>>;
