// The command line's own surface, with no console: --help at every level (the spec's text, every flag the table
// gives, an example), one command per method of the table, usage errors, completion scripts for bash, zsh and fish,
// and profiles (the token read from standard input, kept in a file only its owner can read, never printed).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { needsConfirmation } from "../../../surface/effect.ts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { exampleOf as example } from "../../../cli/src/help.ts";
import { commandsByGroup } from "../../../cli/src/table.ts";
import { kebab } from "../../../surface/flags.ts";
import { readMethods, readTable } from "../../../scripts/lib/methods.ts";
import { startFaultServer, type FaultServer } from "../../helpers/faults/server.js";
import { root } from "../../helpers/readme.js";
import { bin, configDir, rainbond } from "../../helpers/cli/helpers.js";

// every method but an iterator, which is its list's --all
const methods = readMethods().filter((m) => m.kind !== "paging");
// a group's command is its name in kebab-case, as a method's is: `app-models` for the client's appModels
const groups = [...new Set(methods.map((m) => m.group))];
const operations = readTable().operations;

describe("--help", () => {
  test("rainbond --help lists every group, the profiles and completion, and the exit codes", async () => {
    const ran = await rainbond(["--help"]);
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    expect(ran.stdout).toMatch(/^Usage: rainbond /);
    for (const name of [...groups.map(kebab), "profile", "completion"])
      expect(ran.stdout).toMatch(new RegExp(`\\n  ${name}\\b`));
    expect(ran.stdout).toMatch(/Exit codes: 0 done, 2 usage or input, 3 auth, 4 not found, 5 conflict, 6 console/);
  });

  test.each(groups)("rainbond <%s> --help lists its methods with their summaries", async (group) => {
    const ran = await rainbond([kebab(group), "--help"]);
    expect(ran.code).toBe(0);
    const text = ran.stdout.replace(/\s+/g, " ");
    // the client's name of the group, where the command's differs
    if (kebab(group) !== group) expect(text).toContain(`${group} in the client: `);
    for (const method of methods.filter((m) => m.group === group)) {
      expect(ran.stdout).toContain(`  ${kebab(method.method)} `);
      expect(text).toContain(method.summary.replace(/\.?$/, "."));
    }
  });

  describe.each(methods)("rainbond $group $method --help", (method) => {
    test("gives the spec's text, the operation, every parameter as a flag or argument, and an example", async () => {
      const ran = await rainbond([kebab(method.group), kebab(method.method), "--help"]);
      expect([ran.code, ran.stderr]).toEqual([0, ""]);
      const text = ran.stdout.replace(/\s+/g, " ");
      expect(text).toContain(method.summary.replace(/\.?$/, "."));
      expect(text).toContain(`${method.http} (${method.operationId})`);
      // a shortcut takes only the body members of its argument; the others it fixes
      const taken = method.args.flatMap((a) => [a.member ?? a.members ?? []].flat().map((m) => `body.${m}`));
      for (const [name, doc] of Object.entries(method.docs)) {
        if (name === "page" && method.kind === "paging") continue; // the iterator sets it
        if (method.kind === "shortcut" && name.startsWith("body.") && !taken.includes(name)) continue;
        expect(text).toContain(doc.replace(/\s+/g, " ").slice(0, 40));
      }
      // the example the mock test runs (test/mock/cli/mock.test.ts)
      const { line, stdin } = example(
        commandsByGroup()
          .get(kebab(method.group))!
          .find((c) => c.method.name === method.name)!,
      );
      expect(ran.stdout).toContain(`\nExample:\n  $ ${stdin ? `echo '${stdin}' | ` : ""}${line}\n`);
      expect(line).toMatch(new RegExp(`^rainbond ${kebab(method.group)} ${kebab(method.method)}\\b`));
      expect(ran.stdout.includes("--yes")).toBe(needsConfirmation(method.effect));
      // where it departs from what a caller expects: no content, a defect of this console, a GET that changes it
      const operation = operations[method.operationId]!;
      const noContent = "Answers without content: prints nothing on stdout (exit code 0).";
      expect(text.includes(noContent)).toBe(method.returns === "void");
      expect(text.includes("Fails on this console whatever the request")).toBe(operation.defect !== undefined);
      if (operation.defect) expect(text).toContain(operation.defect.replace(/\s+/g, " ").slice(0, 60));
      const getThatChanges = !operation.idempotent && method.http.startsWith("GET ");
      expect(text.includes("A GET that changes the console: sent once, never retried.")).toBe(getThatChanges);
    });
  });

  test("an iterator is no command of its own: its list's --all walks the pages, and its help speaks the CLI's words", async () => {
    const pagers = readMethods().filter((m) => m.kind === "paging");
    expect(pagers.length).toBeGreaterThan(0);
    for (const pager of pagers) {
      const list = methods.find((m) => m.pager === pager.name)!;
      const group = await rainbond([kebab(pager.group), "--help"]);
      expect(group.stdout).not.toContain(kebab(pager.method));
      const help = await rainbond([kebab(list.group), kebab(list.method), "--help"]);
      // the flag's text, wrapped wherever the help's width puts it
      const all = "walk every page, within the iterator's bounds; prints the items (-o jsonl: as each arrives)";
      expect(help.stdout.replace(/\s+/g, " ")).toContain(`--all ${all}`);
      expect(help.stdout).not.toMatch(new RegExp(`Rainbond\\w*Error|${pager.method}`));
    }
  });

  test("a group named as the client names it is refused with the command's name suggested", async () => {
    const ran = await rainbond(["appModels", "save"]);
    expect([ran.code, ran.stdout, ran.stderr]).toEqual([
      2,
      "",
      "rainbond: unknown command 'appModels'; did you mean app-models?\n",
    ]);
  });

  test("rainbond's own options come before a group: a method's --version is the method's query parameter", async () => {
    expect((await rainbond(["--version"])).stdout).toBe(
      `${JSON.parse(readFileSync(join(root, "cli/package.json"), "utf8")).version}\n`,
    );
    const app = ["--team", "q8k2mz5d", "--region", "rainbond", "--app", "12"];
    const chart = ["--repo-name", "bitnami", "--chart-name", "nginx", "--version", "15.0.0", "--dry-run"];
    const ran = await rainbond(["apps", "check-helm-chart", ...app, ...chart], {
      env: { RAINBOND_URL: "http://127.0.0.1:9" },
    });
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    expect(ran.stdout).toMatch(/\/helm_chart\?repo_name=bitnami&chart_name=nginx&version=15\.0\.0' /);
  });

  test("--query names its JMESPath dialect", async () => {
    const ran = await rainbond(["ports", "list", "--help"]);
    expect(ran.stdout.replace(/\s+/g, " ")).toContain(
      "--query <jmespath> a JMESPath expression applied to the answer (JMESPath Community Edition)",
    );
  });

  const secretOnes = methods.filter((m) => m.inputs.some((i) => i.secret));
  test.each(secretOnes.map((m) => [m.name, m] as const))(
    "%s: a secret body member has no flag; the help names it, with its text, and its example pipes it to --body -",
    async (_, method) => {
      const ran = await rainbond([kebab(method.group), kebab(method.method), "--help"]);
      const text = ran.stdout.replace(/\s+/g, " ");
      expect(text).toContain(
        "Secret members: no flag, as a flag shows in process lists and shell history. Give them in --body, from a " +
          "file (@file.json) or standard input (-):",
      );
      for (const input of method.inputs.filter((i) => i.secret)) {
        expect(ran.stdout).not.toMatch(new RegExp(`--${input.name}\\b`));
        const member = input.spec.slice("body.".length);
        expect(text).toContain(`${member}: ${method.docs[input.spec]!.replace(/\s+/g, " ").slice(0, 30)}`);
      }
      const { line, stdin } = example(
        [...commandsByGroup().values()].flat().find((c) => c.method.name === method.name)!,
      );
      if (stdin) expect(line).toMatch(/ --body -( |$)/);
    },
  );

  test("an unknown flag or command: one line starting rainbond:, naming the command, with a suggestion (exit 2)", async () => {
    const typo = await rainbond(["regions", "list-for-team", "--pagesize", "5"]);
    expect([typo.code, typo.stdout, typo.stderr]).toEqual([
      2,
      "",
      "rainbond: regions list-for-team: unknown option '--pagesize'; did you mean --page-size?\n",
    ]);
    const none = await rainbond(["ports"]); // no method: the group's help, on stderr
    expect([none.code, none.stdout]).toEqual([2, ""]);
    expect(none.stderr).toMatch(/^Usage: rainbond ports /);
    const command = await rainbond(["ports", "lsit"]);
    expect([command.code, command.stderr]).toEqual([
      2,
      "rainbond: ports: unknown command 'lsit'; did you mean list?\n",
    ]);
    const group = await rainbond(["prots", "list"]);
    expect([group.code, group.stderr]).toEqual([2, "rainbond: unknown command 'prots'; did you mean ports?\n"]);
    const far = await rainbond(["ports", "zzz"]);
    expect([far.code, far.stderr]).toEqual([
      2,
      "rainbond: ports: unknown command 'zzz'; see 'rainbond ports --help'\n",
    ]);
    const missing = await rainbond(["ports", "delete"]);
    expect([missing.code, missing.stderr]).toEqual([2, "rainbond: ports delete: missing required argument 'port'\n"]);
  });
});

describe("completion", () => {
  test.each(["bash", "zsh", "fish"])(
    "rainbond completion %s prints a script that asks rainbond complete",
    async (shell) => {
      const ran = await rainbond(["completion", shell]);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toContain(`${shell} completion for rainbond`);
      expect(ran.stdout).toMatch(/rainbond complete --/);
    },
  );

  test("rainbond complete -- suggests groups, methods, flags and their values from the table", async () => {
    const lines = async (...args: string[]) => (await rainbond(["complete", "--", ...args])).stdout.split("\n");
    expect(await lines("")).toEqual(
      expect.arrayContaining(groups.map((g) => expect.stringMatching(new RegExp(`^${kebab(g)}\t`)))),
    );
    expect(await lines("ports", "")).toContain("open-outer\tEnables external service on a port.");
    expect(await lines("regions", "list-for-team", "--pa")).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--page-size\t/)]),
    );
    expect(await lines("ports", "list", "--output", "")).toEqual(
      expect.arrayContaining(["json\t", "yaml\t", "table\t"]),
    );
  });

  test("the values of spec flags: an enum's members, a boolean's true and false", async () => {
    const values = async (...args: string[]) =>
      (await rainbond(["complete", "--", ...args])).stdout.split("\n").filter((line) => line.endsWith("\t"));
    expect(await values("ports", "add", "--protocol", "")).toEqual(["tcp\t", "http\t", "mysql\t", "grpc\t", "udp\t"]);
    expect(await values("ports", "add", "--is-inner-service", "")).toEqual(["true\t", "false\t"]);
  });

  test("the bash script completes in a bash without the bash-completion package", async () => {
    // `rainbond` on PATH as a clone gets it (docs/cli.md): a link to the bin
    const dir = mkdtempSync(join(tmpdir(), "rainbond-path-"));
    symlinkSync(bin, join(dir, "rainbond"));
    const complete = (line: string) =>
      [
        `COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}`,
        'read -ra COMP_WORDS <<< "$COMP_LINE"; COMP_CWORD=\${#COMP_WORDS[@]}',
        "__rainbond_complete 2>/dev/null; printf '%s\\n' \"\${COMPREPLY[@]}\"",
      ].join("; ");
    const script = [
      "source <(rainbond completion bash)",
      'declare -F _get_comp_words_by_ref && echo "bash-completion is loaded"',
      complete("rainbond ports add --protocol "),
      "echo ---",
      complete("rainbond ports op"),
    ].join("\n");
    const ran = spawnSync("bash", ["--norc", "--noprofile", "-c", script], {
      encoding: "utf8",
      env: { PATH: `${dir}:${dirname(process.execPath)}:/usr/bin:/bin`, RAINBOND_CONFIG_DIR: configDir() },
    });
    expect(ran.stdout).toBe("tcp\nhttp\nmysql\ngrpc\nudp\n---\nopen-outer\nopen-inner\n");
  });
});

describe("profiles", () => {
  let console: FaultServer;
  beforeAll(async () => {
    console = await startFaultServer(() => ({ body: [] }));
  });
  afterAll(() => console?.close());
  const token = "tok-CLI-PROFILE-3d8c51aa";

  test("add reads the token from standard input into a 0600 file; commands use it; it is never printed", async () => {
    const dir = configDir();
    const env = { RAINBOND_CONFIG_DIR: dir };
    const add = await rainbond(["profile", "add", "prod", "--base-url", console.url, "--team", "q8k2mz5d"], {
      env,
      input: `${token}\n`,
    });
    expect(add.code).toBe(0);
    const file = join(dir, "profiles.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      default: "prod",
      profiles: { prod: { baseUrl: console.url, token, team: "q8k2mz5d" } },
    });
    const list = await rainbond(["profile", "list"], { env });
    expect(JSON.parse(list.stdout)).toEqual([
      { name: "prod", default: true, baseUrl: console.url, team: "q8k2mz5d", token: "set" },
    ]);
    const ran = await rainbond(["apps", "list", "--region", "rainbond"], { env });
    expect([ran.code, ran.stdout.trim()]).toEqual([0, "[]"]);
    expect(console.requests.at(-1)).toMatchObject({ pathname: "/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps" });
    expect(console.requests.at(-1)!.headers.authorization).toBe(token);
    const dry = await rainbond(["apps", "list", "--region", "rainbond", "--dry-run"], { env });
    for (const out of [add, list, ran, dry]) expect(`${out.stdout}${out.stderr}`).not.toContain(token);
  });

  test("--profile and RAINBOND_PROFILE choose; an unknown one, an empty token and --token are usage errors", async () => {
    const env = { RAINBOND_CONFIG_DIR: configDir() };
    await rainbond(["profile", "add", "a", "--base-url", "http://127.0.0.1:9"], { env, input: token });
    await rainbond(["profile", "add", "b", "--base-url", console.url], { env, input: token });
    const chosen = await rainbond(["apps", "list", "--team", "t", "--region", "r", "--profile", "b"], { env });
    expect(chosen.code).toBe(0);
    const byEnv = await rainbond(["apps", "list", "--team", "t", "--region", "r"], {
      env: { ...env, RAINBOND_PROFILE: "b" },
    });
    expect(byEnv.code).toBe(0);
    const missing = await rainbond(["apps", "list", "--profile", "c"], { env });
    expect([missing.code, missing.stderr]).toEqual([2, 'rainbond: no profile "c" (profiles: a, b)\n']);
    const empty = await rainbond(["profile", "add", "d", "--base-url", console.url], { env, input: "" });
    expect(empty.code).toBe(2);
    const flag = await rainbond(["profile", "add", "e", "--base-url", console.url, "--token", token], { env });
    expect([flag.code, flag.stderr]).toEqual([2, expect.stringMatching(/unknown option '--token'/)]);
    await rainbond(["profile", "use", "b"], { env });
    await rainbond(["profile", "remove", "a"], { env });
    const list = await rainbond(["profile", "list"], { env });
    expect(JSON.parse(list.stdout).map((p: { name: string; default: boolean }) => [p.name, p.default])).toEqual([
      ["b", true],
    ]);
  });

  test("a profiles file others can read is used, with a warning on stderr", async () => {
    const dir = configDir();
    const env = { RAINBOND_CONFIG_DIR: dir };
    await rainbond(["profile", "add", "p", "--base-url", console.url], { env, input: token });
    chmodSync(join(dir, "profiles.json"), 0o644);
    const ran = await rainbond(["profile", "list"], { env });
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(/profiles\.json can be read by others than its owner: chmod 600 it/);
  });
});
