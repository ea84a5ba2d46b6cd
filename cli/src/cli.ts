// rainbond: the command. Data alone goes to stdout; every message of ours to stderr, one line, "rainbond: ...". The
// exit code says the class of failure (docs/cli.md): scripts branch on it.
import { readFileSync } from "node:fs";
import { CommanderError } from "commander";
import * as E from "../../src/core.js";
import { addCompletion, program } from "./program.js";
import { NoTokenError, type Io } from "./run.js";
import { UsageError } from "./values.js";

/** The exit code of a failure. */
export function exitCodeOf(e: unknown): number {
  if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2; // help asked for, or the version: 0
  if (e instanceof UsageError || e instanceof E.RainbondInputError) return 2;
  if (e instanceof NoTokenError || e instanceof E.RainbondAuthError) return 3;
  if (e instanceof E.RainbondNotFoundError) return 4;
  if (e instanceof E.RainbondConflictError) return 5;
  if (e instanceof E.RainbondServerError || e instanceof E.RainbondRateLimitError) return 6;
  if (e instanceof E.RainbondApiError && e.reason === "console-record-invalid") return 6; // a read: not the input
  if (e instanceof E.RainbondApiError) return 2; // the console refused the request as given: 400, 412, ...
  if (e instanceof E.RainbondResponseError) return 6;
  if (e instanceof E.RainbondConnectionError) return 7;
  if (e instanceof E.RainbondAbortError) return 130;
  return 1;
}

const io: Io = {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinText: () => readFileSync(0, "utf8"),
  stdinIsTTY: Boolean(process.stdin.isTTY),
};

try {
  const root = program(io);
  await addCompletion(root, process.argv.slice(2));
  await root.parseAsync(process.argv);
} catch (e) {
  const code = exitCodeOf(e);
  // commander has printed its own; the client's messages are masked already
  if (!(e instanceof CommanderError)) {
    const text = code === 1 ? ((e as Error).stack ?? String(e)) : (e as Error).message;
    process.stderr.write(`rainbond: ${text}\n`);
  }
  process.exitCode = code;
}
