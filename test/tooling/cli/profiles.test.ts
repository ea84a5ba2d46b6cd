// A stored token is bound to its profile's console, as gh binds a token to its host (issue 35 §4): a console named
// elsewhere (--base-url, RAINBOND_URL) never gets a profile's token, and a token from elsewhere (RAINBOND_TOKEN) never
// goes to a profile's console; each such combination is refused before anything is sent, naming both sources and how
// to go on. And the profiles file is kept where only its owner can reach it: a folder open to others is tightened, the
// temporary file is created exclusively under an unpredictable name.
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeProfiles } from "../../../cli/src/settings.ts";
import { readMethods } from "../../../scripts/lib/methods.ts";
import { startFaultServer, type FaultServer } from "../../helpers/faults/server.js";
import { configDir, rainbond, type Ran } from "../../helpers/cli/helpers.js";

const PROD_TOKEN = "tok-PROD-PROFILE-7c1e0b52";
const STAGING_TOKEN = "tok-STAGING-PROFILE-2f9a6d14";
const ENV_TOKEN = "tok-FROM-ENV-8b3d5e07";
const call = ["apps", "list", "--team", "q8k2mz5d", "--region", "rainbond"];
let prod: FaultServer;
let other: FaultServer;
let dir: string;
const outputs: Ran[] = [];

beforeAll(async () => {
  [prod, other] = await Promise.all([startFaultServer(() => ({ body: [] })), startFaultServer(() => ({ body: [] }))]);
  dir = configDir();
  const add = (name: string, url: string, token: string) =>
    rainbond(["profile", "add", name, "--base-url", url], { env: { RAINBOND_CONFIG_DIR: dir }, input: token });
  expect((await add("prod", prod.url, PROD_TOKEN)).code).toBe(0); // the default: added first
});
afterAll(async () => {
  await Promise.all([prod?.close(), other?.close()]);
  for (const ran of outputs)
    for (const token of [PROD_TOKEN, STAGING_TOKEN, ENV_TOKEN])
      expect(`${ran.stdout}${ran.stderr}`).not.toContain(token);
});

/** Runs `rainbond ...args` with the profiles of `dir`; what each console received, by token. */
async function run(args: string[], env: Record<string, string> = {}) {
  const before = [prod.requests.length, other.requests.length];
  const ran = await rainbond(args, { env: { RAINBOND_CONFIG_DIR: dir, ...env } });
  outputs.push(ran);
  const tokens = (server: FaultServer, from: number) => server.requests.slice(from).map((r) => r.headers.authorization);
  return { ...ran, prod: tokens(prod, before[0]!), other: tokens(other, before[1]!) };
}

describe("a profile's token goes to its own console only", () => {
  test("RAINBOND_URL=B with --profile prod: refused, naming both; nothing sent", async () => {
    const ran = await run([...call, "--profile", "prod"], { RAINBOND_URL: other.url });
    expect([ran.code, ran.prod, ran.other]).toEqual([2, [], []]);
    expect(ran.stderr).toBe(
      `rainbond: RAINBOND_URL ${other.url} is not the console of profile "prod" (${prod.url}), and its token goes there only: drop RAINBOND_URL to use the profile, or drop --profile prod and set RAINBOND_TOKEN to call ${other.url}\n`,
    );
  });

  test("--base-url B with RAINBOND_PROFILE=prod: refused, naming both; nothing sent", async () => {
    const ran = await run([...call, "--base-url", other.url], { RAINBOND_PROFILE: "prod" });
    expect([ran.code, ran.prod, ran.other]).toEqual([2, [], []]);
    expect(ran.stderr).toMatch(
      /^rainbond: --base-url \S+ is not the console of profile "prod" .*drop RAINBOND_PROFILE=prod/,
    );
  });

  test("--base-url B and the default profile for A: no token for B, said so; nothing sent", async () => {
    const ran = await run([...call, "--base-url", other.url]);
    expect([ran.code, ran.prod, ran.other]).toEqual([2, [], []]);
    expect(ran.stderr).toBe(
      `rainbond: no token for ${other.url} (--base-url): no profile is for that console ("prod" is for ${prod.url}; a token goes to its own console only). Set RAINBOND_TOKEN, or add one: rainbond profile add <name> --base-url ${other.url}\n`,
    );
  });

  test("the profile's own console given again (with a trailing slash): its token, to it", async () => {
    const named = await run([...call, "--profile", "prod", "--base-url", `${prod.url}/`]);
    expect([named.code, named.prod, named.other]).toEqual([0, [PROD_TOKEN], []]);
    const found = await run(call, { RAINBOND_URL: prod.url });
    expect([found.code, found.prod, found.other]).toEqual([0, [PROD_TOKEN], []]);
  });

  test("a console given alone takes the token of the profile for it, as gh's --hostname does", async () => {
    const env = { RAINBOND_CONFIG_DIR: configDir() };
    await rainbond(["profile", "add", "prod", "--base-url", prod.url], { env, input: PROD_TOKEN });
    await rainbond(["profile", "add", "staging", "--base-url", other.url], { env, input: STAGING_TOKEN });
    const ran = await rainbond([...call, "--base-url", other.url], { env });
    outputs.push(ran);
    expect(ran.code).toBe(0);
    expect(other.requests.at(-1)!.headers.authorization).toBe(STAGING_TOKEN);
    await rainbond(["profile", "add", "staging-2", "--base-url", other.url], { env, input: STAGING_TOKEN });
    const two = await rainbond([...call, "--base-url", other.url], { env });
    expect([two.code, two.stderr]).toEqual([
      2,
      `rainbond: profiles "staging", "staging-2" are all for ${other.url}: choose one with --profile\n`,
    ]);
  });
});

describe("a token from elsewhere never goes to a profile's console", () => {
  test("RAINBOND_TOKEN with --profile prod: refused; nothing sent to prod's console", async () => {
    const ran = await run([...call, "--profile", "prod"], { RAINBOND_TOKEN: ENV_TOKEN });
    expect([ran.code, ran.prod, ran.other]).toEqual([2, [], []]);
    expect(ran.stderr).toBe(
      `rainbond: RAINBOND_TOKEN is set and --profile prod gives a token of its own for ${prod.url}: unset RAINBOND_TOKEN to use the profile's, or drop --profile prod and give the console with --base-url or RAINBOND_URL\n`,
    );
  });

  test("RAINBOND_TOKEN alone, with a default profile: refused, the token's console is not the profile's", async () => {
    const ran = await run(call, { RAINBOND_TOKEN: ENV_TOKEN });
    expect([ran.code, ran.prod, ran.other]).toEqual([2, [], []]);
    expect(ran.stderr).toBe(
      `rainbond: RAINBOND_TOKEN is set without its console: set RAINBOND_URL or give --base-url (the default profile "prod" keeps its own token for ${prod.url})\n`,
    );
  });

  test("RAINBOND_TOKEN with RAINBOND_URL: that token to that console, and no profile read", async () => {
    const ran = await run(["apps", "list"], { RAINBOND_TOKEN: ENV_TOKEN, RAINBOND_URL: other.url });
    expect(ran.code).toBe(2); // prod's default team is not taken for another console
    expect(ran.stderr).toMatch(/--team is required/);
    const sent = await run(call, { RAINBOND_TOKEN: ENV_TOKEN, RAINBOND_URL: other.url });
    expect([sent.code, sent.prod, sent.other]).toEqual([0, [], [ENV_TOKEN]]);
  });
});

describe("profile add checks each value when it is saved", () => {
  test.each([
    [["--app", "abc"], 'rainbond: profile add: --app must be an integer (got "abc")\n'],
    [["--app", "-1"], 'rainbond: profile add: --app must be at least 0 (got "-1")\n'],
    [
      ["--component", "svc.8d2k"],
      'rainbond: profile add: --component must be letters, digits, "_" and "-" only (no dot, slash, space or "%") (got "svc.8d2k")\n',
    ],
    [["--base-url", "console.example.org"], expect.stringMatching(/^rainbond: --base-url must be an http\(s\) URL/)],
  ])("%j is refused by the spec's rule, and nothing is saved", async (flags, message) => {
    const folder = configDir();
    const ran = await rainbond(["profile", "add", "p", "--base-url", prod.url, ...flags], {
      env: { RAINBOND_CONFIG_DIR: folder },
      input: PROD_TOKEN,
    });
    expect([ran.code, ran.stderr]).toEqual([2, message]);
    expect(existsSync(join(folder, "profiles.json"))).toBe(false);
  });

  test("ids every command takes are saved", async () => {
    const folder = configDir();
    const flags = ["--team", "q8k2mz5d", "--region", "rainbond", "--app", "12", "--component", "gr3f9c2a"];
    const ran = await rainbond(["profile", "add", "p", "--base-url", prod.url, ...flags], {
      env: { RAINBOND_CONFIG_DIR: folder },
      input: PROD_TOKEN,
    });
    expect(ran.code).toBe(0);
    expect(JSON.parse(readFileSync(join(folder, "profiles.json"), "utf8")).profiles.p).toMatchObject({ app: "12" });
  });
});

describe("the ids a profile keeps", () => {
  test("are the table's scope flags; the other path ids (a user, a certificate, an event, a rule) are arguments", async () => {
    const help = (await rainbond(["profile", "add", "--help"])).stdout;
    const scopes = [...help.matchAll(/^ {2}--(\w+) <id> +the default --\1$/gm)].map((m) => m[1]);
    expect(scopes).toEqual(["team", "region", "app", "component"]);
    const ids = readMethods().flatMap((m) => m.inputs.filter((i) => i.kind === "path" || i.kind === "scope"));
    for (const input of ids) expect(input.kind === "scope", input.spec).toBe(!input.positional);
    for (const spec of ["user_id", "certificate_id", "event_id", "rule_id"])
      expect(ids.filter((i) => i.spec === spec).every((i) => i.positional)).toBe(true);
  });

  test("are not taken for the id naming what a destructive call removes: it must be typed", async () => {
    const folder = configDir();
    const flags = ["--team", "q8k2mz5d", "--region", "rainbond", "--app", "12", "--component", "gr3f9c2a"];
    const env = { RAINBOND_CONFIG_DIR: folder };
    await rainbond(["profile", "add", "p", "--base-url", prod.url, ...flags], { env, input: PROD_TOKEN });
    const before = prod.requests.length;
    const cases = [
      [["teams", "delete", "--yes"], "teams.delete: --team must be typed"],
      [["apps", "delete", "--yes"], "apps.delete: --app must be typed"],
      [["components", "delete", "--yes"], "components.delete: --component must be typed"],
    ] as const;
    for (const [args, message] of cases) {
      const ran = await rainbond([...args], { env });
      expect([ran.code, ran.stdout]).toEqual([2, ""]);
      expect(ran.stderr).toMatch(
        new RegExp(`^rainbond: ${message.replace(/\./g, "\\.")}: it names what the call removes`),
      );
      expect(ran.stderr).toContain("neither RAINBOND_");
    }
    const fromEnv = await rainbond(["apps", "delete", "--yes"], { env: { ...env, RAINBOND_APP: "13" } });
    expect(fromEnv.stderr).toMatch(/^rainbond: apps\.delete: --app must be typed/);
    expect(prod.requests.length).toBe(before);
    // the other ids of the same call still come from the profile
    const typed = await rainbond(["apps", "delete", "--app", "12", "--yes"], { env });
    expect(typed.code).toBe(0);
    expect(prod.requests.at(-1)).toMatchObject({
      method: "DELETE",
      pathname: "/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12",
    });
  });
});

describe("the profiles file's folder and its temporary file", () => {
  test("an existing folder open to others (0777) is tightened to 0700, and the user told", async () => {
    const folder = mkdtempSync(join(tmpdir(), "rainbond-open-"));
    chmodSync(folder, 0o777);
    const env = { RAINBOND_CONFIG_DIR: folder };
    const add = await rainbond(["profile", "add", "p", "--base-url", prod.url], { env, input: PROD_TOKEN });
    expect(add.code).toBe(0);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(add.stderr).toContain(
      `rainbond: ${folder} was open to others (mode 777): made 0700, as it holds API tokens\n`,
    );
    chmodSync(folder, 0o733);
    const list = await rainbond(["profile", "list"], { env });
    expect(list.stderr).toContain(`${folder} can be written to by others than its owner: chmod 700 it`);
  });

  test("a symbolic link planted under the temporary file's old name (profiles.json.<pid>.tmp) is not followed", () => {
    const folder = mkdtempSync(join(tmpdir(), "rainbond-planted-"));
    const target = join(mkdtempSync(join(tmpdir(), "rainbond-target-")), "stolen.json");
    const planted = join(folder, `profiles.json.${process.pid}.tmp`);
    symlinkSync(target, planted);
    const profiles = { default: "p", profiles: { p: { baseUrl: "https://console.example.org", token: PROD_TOKEN } } };
    writeProfiles({ RAINBOND_CONFIG_DIR: folder }, profiles, () => {});
    expect(existsSync(target)).toBe(false);
    expect(JSON.parse(readFileSync(join(folder, "profiles.json"), "utf8"))).toEqual(profiles);
    expect(statSync(join(folder, "profiles.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder).sort()).toEqual(["profiles.json", `profiles.json.${process.pid}.tmp`]);
  });
});
