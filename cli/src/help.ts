// The help of a method command, from the table: the spec's text for each input, and an example made from the spec's
// examples (the one its tests run against the mock).
import { isRecord } from "../../surface/runtime.js";
import { describeEffect, needsConfirmation } from "../../surface/effect.js";
import type { Input, MethodCommand } from "./table.js";
import { shellQuote as quote } from "../../surface/curl.js";
import { isSwitch } from "./values.js";

/** One paragraph: the spec's Markdown as plain text on one line (commander wraps it). */
export const plain = (text = "") => text.replace(/\s+/g, " ").trim();

/** A paragraph wrapped at 80 columns, each line after `indent`, for the text commander prints as it is. */
export const wrapped = (text: string, indent = "") =>
  plain(text)
    .replace(new RegExp(`(.{1,${80 - indent.length}})(\\s+|$)`, "g"), `${indent}$1\n`)
    .trimEnd();

/** What an input's help line says: the spec's text, what it takes, whether it is required, where its default is. */
export function describe(command: MethodCommand, input: Input): string {
  const parts = [plain(command.method.docs[input.spec])];
  if (input === command.target) parts.push("Required: it names what the call removes, so no default is taken.");
  else if (input.kind === "scope") parts.push(`Default: $RAINBOND_${input.name.toUpperCase()}, or the profile's.`);
  else if (input.required && !input.positional) parts.push("Required.");
  return parts.filter(Boolean).join(" ");
}

/** What a flag takes, for its help line: `<integer>`, `<tcp|http|...>`, `<json>`, `[true|false]` for a switch. */
export function valueHint({ rule }: Input): string {
  if (isSwitch(rule)) return "[true|false]";
  if (rule.enum) return `<${rule.enum.join("|")}>`;
  const type = [rule.type ?? []].flat()[0] ?? "value";
  return `<${type === "object" || type === "array" ? "json" : rule.acceptsNumber ? "integer" : type}>`;
}

/** A flag's value as a shell word (`--is-inner-service` alone for true). */
function word(input: Input, value: unknown): string[] {
  const flag = quote(`--${input.name}`); // `'--match[]'`: a shell reads [] as a pattern
  if (value === true && isSwitch(input.rule)) return [flag];
  return [flag, quote(typeof value === "object" ? JSON.stringify(value) : String(value))];
}

/**
 * `rainbond <group> <method> ...` with the spec's examples; and the JSON a secret member is given in through standard
 * input (`--body -`), never a flag, or undefined.
 */
export function exampleOf(command: MethodCommand): { line: string; stdin?: string } {
  const words = ["rainbond", command.group, command.name];
  const positionals: string[] = [];
  const secrets: Record<string, unknown> = {};
  const byClient = (client: string) => command.inputs.find((i) => i.client === client);
  const put = (input: Input | undefined, value: unknown) => {
    if (!input || value === undefined) return;
    if (input.secret) secrets[input.spec.slice("body.".length)] = value;
    else if (input.positional) positionals.push(quote(String(value)));
    else words.push(...word(input, value));
  };
  let wholeBody: unknown;
  for (const arg of command.method.args) {
    const example = arg.example;
    if (arg.kind === "path" || (arg.kind === "argument" && arg.member)) put(byClient(arg.name), example);
    else if (isRecord(example))
      for (const [key, value] of Object.entries(example)) put(byClient(`${arg.name}.${key}`), value);
    else if (arg.kind === "body" && example !== undefined) wholeBody = example;
  }
  if (wholeBody !== undefined) words.push("--body", quote(JSON.stringify(wholeBody)));
  const stdin = Object.keys(secrets).length ? JSON.stringify(secrets) : undefined;
  if (stdin) words.push("--body", "-");
  if (needsConfirmation(command.method.effect)) words.push("--yes");
  return { line: [...words.slice(0, 3), ...positionals, ...words.slice(3)].join(" "), stdin };
}

/** Where a secret member goes instead of a flag, said once: the help's heading and docs/cli.md say it so. */
const SECRETS =
  "Secret members: no flag, as a flag shows in process lists and shell history. Give them in --body, from a file " +
  "(@file.json) or standard input (-):";

/** The text after a method command's options: what it does, what it fails on, its secret members, and its example. */
export function after(command: MethodCommand): string {
  const { method, operation } = command;
  const lines = [
    "",
    ...(method.docs[""] ? [wrapped(method.docs[""]), ""] : []),
    `${method.http} (${method.operationId})`,
  ];
  lines.push(describeEffect(method.effectBy ?? method.effect));
  if (needsConfirmation(method.effect))
    lines.push(
      method.effectBy
        ? "Asks on a terminal first where the effect needs it; elsewhere those need --yes."
        : "Asks on a terminal first; elsewhere needs --yes.",
    );
  if (command.sentOnce)
    lines.push(`A ${method.http.split(" ")[0]} that changes the console: sent once, never retried.`);
  if (method.via) lines.push(`Calls ${method.via}${method.fixed ? ` with ${JSON.stringify(method.fixed)}` : ""}.`);
  if (command.pager) lines.push("--all walks every page and prints the items.");
  if (method.returns === "void") lines.push("Answers without content: prints nothing on stdout (exit code 0).");
  if (operation.defect) {
    const findings = operation.findings?.length ? ` (finding ${operation.findings.join(", ")})` : "";
    lines.push("", wrapped(`Fails on this console whatever the request${findings}: ${operation.defect}`));
  }
  const secrets = command.inputs.filter((i) => i.secret);
  if (secrets.length) {
    lines.push("", wrapped(SECRETS));
    for (const input of secrets)
      lines.push(wrapped(`${input.spec.slice("body.".length)}: ${method.docs[input.spec] ?? ""}`, "  "));
  }
  const { line, stdin } = exampleOf(command);
  lines.push("", "Example:", stdin ? `  $ echo '${stdin}' | ${line}` : `  $ ${line}`);
  return lines.join("\n");
}
