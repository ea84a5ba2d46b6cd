// The command line as its users run it: the built bin (cli/dist/cli.js) in a child process, with only the
// environment a test gives it (and PATH), a profiles folder of its own, and standard input from the test.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { startFaultServer, type FaultServer } from "../faults/server.js";
import { root } from "../readme.js";

export const bin = join(root, "cli/dist/cli.js");

/** Builds the bin of the project at `dir` (the project's own is built once per run: test/setup/bins.ts). */
export function buildBin(dir: string): void {
  const result = spawnSync(process.execPath, [join(dir, "cli/build.mjs")], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`cli build failed:\n${result.stderr}`);
}

/** A fresh folder for profiles.json (RAINBOND_CONFIG_DIR). */
export const configDir = () => mkdtempSync(join(tmpdir(), "rainbond-cli-"));

export interface Ran {
  code: number | null;
  /** The signal that ended it, if one did (SIGPIPE on a closed pipe). */
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  input?: string;
  /** Close the reading end of stdout at once: the first write fails with EPIPE. */
  closedStdout?: boolean;
}

/** Runs `command ...args` with only the environment given (and PATH, a profiles folder); resolves when it has exited. */
export function run(
  command: string,
  args: string[],
  { env = {}, input = "", closedStdout = false }: RunOptions = {},
): Promise<Ran> {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? "", RAINBOND_CONFIG_DIR: configDir(), ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (closedStdout) child.stdout.destroy();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  // a command that exits without reading its input closes the pipe first: EPIPE is no failure of the test's
  child.stdin.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
  });
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs `rainbond ...args` (the bin, or `file`); resolves when it has exited. */
export function rainbond(
  args: string[],
  { file = bin, ...options }: RunOptions & { file?: string } = {},
): Promise<Ran> {
  return run(process.execPath, [file, ...args], options);
}

/** The words of a shell command line as the help's examples write them (single quotes, `'\''` inside). */
export function words(line: string): string[] {
  return (line.match(/(?:'[^']*'|\\'|[^\s'\\])+/g) ?? []).map((word) =>
    word.replace(
      /'([^']*)'|\\(')/g,
      (_, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped!,
    ),
  );
}

/**
 * The bin against the fault server of test/helpers/faults/ (a loopback server of our own), for the test file that calls it:
 * started before its tests, closed after them. `run` calls the bin with `token` for that server (and `env`)
 * and keeps its output: none may hold the token.
 */
export function withFaultServer(token: string) {
  let fault: FaultServer | undefined;
  const outputs: Ran[] = [];
  beforeAll(async () => {
    fault = await startFaultServer();
  });
  afterAll(async () => {
    await fault?.close();
    for (const ran of outputs) expect(`${ran.stdout}${ran.stderr}`).not.toContain(token);
  });
  return {
    server: () => fault!,
    async run(args: string[], { env = {}, input = "" }: RunOptions = {}): Promise<Ran> {
      const ran = await rainbond(args, { env: { RAINBOND_URL: fault!.url, RAINBOND_TOKEN: token, ...env }, input });
      outputs.push(ran);
      return ran;
    },
  };
}
