import type { RunResult } from "../../test/package/helpers.js";
import type { Outcome } from "./outcome.mjs";
import type { SmokeConfig, SmokeReport } from "./smoke.mjs";

export const PINNED: {
  node: Record<"20" | "22" | "24", string>;
  bun: string;
  deno: string;
  edge: string;
  typescript: string[];
};
export interface MatrixContext {
  run(
    file: string,
    args: readonly string[],
    options?: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
  ): Promise<RunResult>;
  install(spec: string): Promise<string>;
  consumerDir: string;
  config: SmokeConfig;
  edgeHost: string;
  chromiumVersion: string;
  chromium(config: SmokeConfig): Promise<SmokeReport>;
  typescripts: readonly string[];
}
export interface Row {
  name: string;
  /** What it installs from the npm registry (`name@version`). */
  needs: string[];
  run(): Promise<Outcome>;
}
export function matrixRows(ctx: MatrixContext): Row[];
export function writeEntries(consumerDir: string, config: SmokeConfig, smokeSource: string): Promise<void>;
