import type { RunResult } from "../../test/package/helpers.js";

export function cacheRoot(env?: NodeJS.ProcessEnv): string;
export function installed(
  spec: string,
  options: {
    root?: string;
    run: (file: string, args: readonly string[], options?: { cwd?: string; timeoutMs?: number }) => Promise<RunResult>;
    npmArgs?: string[];
  },
): Promise<string>;
export function platformBinary(dir: string, scope: string, file: string): string;
