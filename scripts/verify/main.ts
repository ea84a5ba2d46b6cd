// `npm run verify`: arguments in, report out, exit code back. 0: every answer conforms; 1: deviations; 2: the verify
// could not run (bad arguments, the console cannot be reached, the token is refused), said in one line, no stack.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { specDiffersFromGenerated } from "../generate.ts";
import { USAGE, UsageError, parseOptions } from "./options.js";
import { renderJson, renderMarkdown, renderText } from "./render.js";
import { CannotVerify, verify, type RunContext } from "./run.js";

export const STALE_SPEC_WARNING =
  "verify: warning: spec/ differs from generated/openapi.json, which this run checks against; run `npm run generate` first";

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export async function main(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  context: RunContext,
  io: Io,
): Promise<number> {
  try {
    const options = parseOptions(argv, env);
    if (!options) {
      io.out(`${USAGE}\n\nSee docs/verifying-a-console.md.\n`);
      return 0;
    }
    // verify checks the console against generated/: say so when spec/ has moved on (bundled and compared, in parallel)
    const [report, stale] = await Promise.all([
      verify(options, context),
      specDiffersFromGenerated(join(context.root, "spec/openapi.yaml"), join(context.root, "generated")).catch(
        () => false, // a spec that does not bundle: `npm run generate` says why; the verify goes on
      ),
    ]);
    if (stale) io.err(`${STALE_SPEC_WARNING}\n`);
    io.out(options.json ? renderJson(report) : renderText(report));
    if (options.report) await writeFile(options.report, renderMarkdown(report));
    if (report.exitCode === 2) io.err(`verify: ${report.summary}\n`);
    return report.exitCode;
  } catch (err) {
    if (err instanceof UsageError) io.err(`verify: ${err.message}\n${USAGE}\n`);
    else if (err instanceof CannotVerify) io.err(`verify: ${err.message}\n`);
    else io.err(`verify: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}\n`);
    return 2;
  }
}
