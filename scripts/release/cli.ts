// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// What the release scripts share as command-line programs: whether a module runs as the script, the repository they
// run in, running a command, and the step outputs of GitHub Actions.
import { execFileSync } from "node:child_process";
import { appendFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Whether the module at `url` (import.meta.url) is the script node was started with. */
export function isMain(url) {
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(url));
  } catch {
    return false;
  }
}

/** The top of the git repository of the working directory (npm runs scripts at the package's root). */
export const repositoryRoot = () => git(process.cwd(), "rev-parse", "--show-toplevel").trim();

/** git in `dir`; its output. */
export const git = (dir, ...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: "pipe" });

/** Appends `name=value` lines to the file GitHub Actions reads step outputs from ($GITHUB_OUTPUT), if any. */
export function writeOutputs(outputs, file = process.env.GITHUB_OUTPUT) {
  if (!file) return;
  appendFileSync(
    file,
    Object.entries(outputs)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(""),
  );
}

/** Runs a CLI entry point; a thrown error is printed with the program's name and exits with 2. */
export async function main(name, run) {
  try {
    process.exitCode = (await run()) ?? 0;
  } catch (err) {
    console.error(`${name}: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 2;
  }
}
