// `rainbond completion <shell>` (the script for bash, zsh, fish or powershell) and the hidden `complete -- <words>` that
// the script calls, from @bomb.sh/tab: groups, methods, flags, and the values a flag takes: the output formats, and
// each spec flag's enum (`ports add --protocol <TAB>`) or true/false, from the table. tab's bash script needs the
// bash-completion package for one function; ours falls back to bash's own words without it.
import type { Command } from "commander";
import { commandsByGroup } from "./table.js";
import { isSwitch } from "./values.js";

type Completion = import("@bomb.sh/tab").RootCommand;

/** What stands in for bash-completion's `_get_comp_words_by_ref` where that package is not installed. */
const WORDS_OF_BASH = `    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n "=:" cur prev words cword
    else
        # without the bash-completion package: the words before the cursor, split on blanks only (as -n "=:" does)
        local line=\${COMP_LINE:0:COMP_POINT}
        read -ra words <<< "$line"
        [[ -z $line || $line == *[[:blank:]] ]] && words+=("")
        cword=$((\${#words[@]} - 1))
        cur=\${words[cword]}
        prev=\${words[cword - 1]}
    fi
`;
const NEEDS_BASH_COMPLETION = `    _get_comp_words_by_ref -n "=:" cur prev words cword\n`;

/** The bash script of tab, working with or without the bash-completion package. */
function bashScript(completion: Completion, name: string): string {
  const lines: unknown[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void lines.push(...args); // tab prints its scripts
  try {
    completion.setup(name, name, "bash");
  } finally {
    console.log = log;
  }
  const script = lines.join("\n");
  if (!script.includes(NEEDS_BASH_COMPLETION)) throw new Error("@bomb.sh/tab's bash script changed: see completion.ts");
  return `${script.replace(NEEDS_BASH_COMPLETION, WORDS_OF_BASH)}\n`;
}

/** Whether a run is one of the completion commands (which need every command of the tree). */
export const completes = (argv: readonly string[]) => argv[0] === "completion" || argv[0] === "complete";

/** Adds the completion commands: tab's, loaded only when one of them runs, else a stand-in lists it in the help. */
export async function addCompletion(root: Command, argv: readonly string[], write: (text: string) => void) {
  if (!completes(argv)) {
    root.command("completion <shell>").description("a completion script for bash, zsh, fish or powershell");
    return;
  }
  const { default: tab } = await import("@bomb.sh/tab/commander");
  const completion = tab(root, { completionCommandName: "completion" });
  for (const [group, commands] of commandsByGroup()) {
    for (const command of commands) {
      const options = completion.commands.get(`${group} ${command.name}`)?.options;
      for (const input of command.inputs) {
        const values = isSwitch(input.rule) ? ["true", "false"] : input.rule.enum?.map(String);
        const option = options?.get(input.name);
        if (option && values) option.handler = (add) => values.forEach((value) => add(value, ""));
      }
    }
  }
  root.commands
    .find((c) => c.name() === "completion")!
    .action((shell: string) =>
      shell === "bash" ? write(bashScript(completion, root.name())) : completion.setup(root.name(), root.name(), shell),
    );
}
