// `rainbond profile add|list|remove|use`: named consoles with their token and default ids. The token is read from a
// prompt (on a terminal, not echoed) or standard input, never from a flag, and never printed.
import type { Command } from "commander";
import { RainbondInputError, createRainbondCore } from "../../src/core.js";
import { formatOf, type Io } from "./run.js";
import { layoutOf, render } from "./output.js";
import { readProfiles, writeProfiles, type Profile } from "./settings.js";
import { check } from "../../surface/runtime.js";
import { SCOPES, commandsByGroup } from "./table.js";
import { UsageError, fromText } from "./values.js";

async function readToken(io: Io): Promise<string> {
  if (!io.stdinIsTTY) return io.stdinText().trim();
  const prompts = await import("@clack/prompts");
  const answer = await prompts.password({ message: "API token (not shown)", output: io.stderr });
  return prompts.isCancel(answer) ? "" : answer.trim();
}

/** Refuses a default id that a command would refuse: every rule the spec gives that scope's flag, checked when saved. */
function checkScope(scope: string, text: string): void {
  const rules = new Set<string>();
  for (const commands of commandsByGroup().values()) {
    for (const input of commands.flatMap((command) => command.inputs)) {
      if (input.kind !== "scope" || input.name !== scope || rules.has(JSON.stringify(input.rule))) continue;
      rules.add(JSON.stringify(input.rule));
      try {
        // as the client checks it: a number it also takes as text (acceptsNumber) is sent as text
        check("profile add", `--${scope}`, input.rule, input.rule.acceptsNumber ? text : fromText(input, text), text);
      } catch (e) {
        throw e instanceof RainbondInputError ? new UsageError(e.message) : e;
      }
    }
  }
}

export function addProfileCommands(root: Command, io: Io): void {
  const warn = (line: string) => void io.stderr.write(`rainbond: ${line}\n`);
  const profile = root.command("profile").description("consoles by name: add, list, remove, use");
  const add = profile
    .command("add <name>")
    .description("add or replace a profile; its token is read from a prompt, or standard input when piped")
    .requiredOption("--base-url <origin>", "the console's origin, e.g. https://console.example.org:7070")
    .option("--default", "make it the default profile");
  for (const scope of SCOPES) add.option(`--${scope} <id>`, `the default --${scope}`);
  add.action(async (name: string, flags: Record<string, string | boolean | undefined>) => {
    for (const scope of SCOPES) if (typeof flags[scope] === "string") checkScope(scope, flags[scope] as string);
    const token = await readToken(io);
    if (!token) throw new UsageError("no token given: type it at the prompt or pipe it to standard input");
    try {
      createRainbondCore({ baseUrl: flags.baseUrl as string, token }); // the client's own checks of both
    } catch (e) {
      if (!(e instanceof RainbondInputError)) throw e;
      throw new UsageError(`${e.argument === "baseUrl" ? "--base-url" : e.argument} ${e.rule}`);
    }
    const file = readProfiles(io.env, warn);
    const entry: Profile = { baseUrl: flags.baseUrl as string, token };
    for (const scope of SCOPES)
      if (typeof flags[scope] === "string") entry[scope as keyof Profile] = flags[scope] as string;
    file.profiles[name] = entry;
    if (flags.default || !file.default) file.default = name;
    const where = writeProfiles(io.env, file, warn);
    io.stderr.write(`rainbond: profile "${name}" saved in ${where} (readable by its owner only)\n`);
  });
  profile
    .command("list")
    .description("the profiles, without their tokens")
    .option("-o, --output <format>", "json, jsonl, yaml or table")
    .action(async (flags: { output?: string }) => {
      const file = readProfiles(io.env, warn);
      const rows = Object.entries(file.profiles).map(([name, { token, ...rest }]) => ({
        name,
        default: name === file.default,
        ...rest,
        token: token ? "set" : "none",
      }));
      io.stdout.write(await render(rows, formatOf(flags, io), layoutOf(io)));
    });
  /** The profiles file, which must hold profile `name`. */
  const holding = (name: string) => {
    const file = readProfiles(io.env, warn);
    if (!file.profiles[name]) throw new UsageError(`no profile "${name}"`);
    return file;
  };
  profile
    .command("remove <name>")
    .description("remove a profile and its token")
    .action((name: string) => {
      const file = holding(name);
      delete file.profiles[name];
      writeProfiles(io.env, { ...file, default: file.default === name ? undefined : file.default }, warn);
    });
  profile
    .command("use <name>")
    .description("make a profile the default")
    .action((name: string) => void writeProfiles(io.env, { ...holding(name), default: name }, warn));
}
