// rainbond: the command. Data alone goes to stdout; every message of ours to stderr, one line, "rainbond: ...". The
// exit code says the class of failure (docs/cli.md): scripts branch on it.
import { readFileSync } from "node:fs";
import { CommanderError } from "commander";
import * as E from "../../src/core.js";
import { addCompletion, completes } from "./completion.js";
import { program, type ParseError } from "./program.js";
import { NoTokenError, type Io } from "./run.js";
import { escapeLines, escapeText } from "./terminal.js";
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

/**
 * A closed pipe (`rainbond ... | head -1`) ends the command as it ends git, gh and the tools of coreutils: at once,
 * quietly, killed by SIGPIPE (a shell shows 141). Node ignores SIGPIPE; a listener added and removed gives the signal
 * its default action back. Where there is no such signal (Windows), the same status as an exit code.
 */
function endOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    const keep = () => {};
    process.on("SIGPIPE", keep).off("SIGPIPE", keep);
    process.kill(process.pid, "SIGPIPE");
    process.exit(141);
  });
}
endOnClosedPipe(process.stdout);
endOnClosedPipe(process.stderr);

/** What commander prints itself (help, the version), or nothing to say: no message of ours. */
const SAID = new Set([
  "commander.help",
  "commander.helpDisplayed",
  "commander.version",
  "commander.executeSubCommandAsync",
]);

/** A mistake in what was typed, on one line: `ports: unknown command 'lsit'; did you mean list?`. */
function mistake(e: ParseError): string {
  const text = e.message
    .replace(/^error: /, "")
    .replace(/\n\(Did you mean (.*)\?\)$/s, "; did you mean $1?")
    .replace(/\s*\n\s*/g, " ");
  const help = `rainbond ${e.command ? `${e.command} ` : ""}--help`;
  const see = /^unknown (command|option)/.test(text) && !text.includes("; did you mean") ? `; see '${help}'` : "";
  return `${e.command ? `${e.command}: ` : ""}${text}${see}`;
}

const io: Io = {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinText: () => readFileSync(0, "utf8"),
  stdinIsTTY: Boolean(process.stdin.isTTY),
};

try {
  const argv = process.argv.slice(2);
  const root = program(io, argv, { everyMethod: completes(argv) });
  await addCompletion(root, argv, (text) => void io.stdout.write(text));
  await root.parseAsync(process.argv);
} catch (e) {
  const code = exitCodeOf(e);
  // the client's messages are masked already, and may quote the console: escaped, as what was typed is
  if (e instanceof CommanderError) {
    if (!SAID.has(e.code)) process.stderr.write(`rainbond: ${escapeText(mistake(e as ParseError))}\n`);
  } else {
    const text = code === 1 ? escapeLines((e as Error).stack ?? String(e)) : escapeText((e as Error).message);
    process.stderr.write(`rainbond: ${text}\n`);
  }
  process.exitCode = code;
}
