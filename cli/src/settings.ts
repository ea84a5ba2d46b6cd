// Where a command finds the console, the token and the default ids: flags, then the environment (RAINBOND_URL,
// RAINBOND_TOKEN, RAINBOND_TEAM, ...), then a profile. Profiles live in one JSON file that only its owner can read
// (0600, in a 0700 folder): $RAINBOND_CONFIG_DIR, else $XDG_CONFIG_HOME/rainbond, else ~/.config/rainbond.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { UsageError } from "./values.js";
import { SCOPES } from "./table.js";

export interface Profile {
  baseUrl: string;
  token?: string;
  team?: string;
  region?: string;
  app?: string;
  component?: string;
}

export interface Profiles {
  default?: string;
  profiles: Record<string, Profile>;
}

export function configDir(env: NodeJS.ProcessEnv): string {
  return env.RAINBOND_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "rainbond");
}

const fileOf = (env: NodeJS.ProcessEnv) => join(configDir(env), "profiles.json");

const ownerOnly = process.platform !== "win32";

/** The profiles file, or none; warns (stderr) when others can read it, or write to its folder. */
export function readProfiles(env: NodeJS.ProcessEnv, warn: (line: string) => void): Profiles {
  const file = fileOf(env);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { profiles: {} };
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code}`);
  }
  if (ownerOnly && statSync(file).mode & 0o077) {
    warn(`${file} can be read by others than its owner: chmod 600 it (it holds API tokens)`);
  }
  if (ownerOnly && statSync(configDir(env)).mode & 0o022) {
    warn(`${configDir(env)} can be written to by others than its owner: chmod 700 it (it holds API tokens)`);
  }
  try {
    const parsed = JSON.parse(text) as Profiles;
    return { ...parsed, profiles: parsed.profiles ?? {} };
  } catch {
    throw new UsageError(`${file} is not JSON: fix or remove it`);
  }
}

/**
 * The folder of the profiles file, made 0700; an existing one open to others is tightened to 0700, saying so, or
 * refused when it is not the user's (a shared folder such as /tmp): a token file is kept in no folder others can use.
 */
function ownFolder(dir: string, warn: (line: string) => void): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!ownerOnly) return;
  const { mode, uid } = statSync(dir);
  if (!(mode & 0o077)) return;
  if (uid !== process.getuid!()) {
    throw new UsageError(
      `${dir} is open to others and not yours, so it cannot hold API tokens: set RAINBOND_CONFIG_DIR to a folder of your own`,
    );
  }
  chmodSync(dir, 0o700);
  warn(`${dir} was open to others (mode ${(mode & 0o777).toString(8)}): made 0700, as it holds API tokens`);
}

/**
 * Writes the profiles file: a temporary file of an unpredictable name, created 0600 and exclusively (a file or a
 * symbolic link planted under its name is never followed nor written), then renamed over the old one.
 */
export function writeProfiles(env: NodeJS.ProcessEnv, profiles: Profiles, warn: (line: string) => void): string {
  ownFolder(configDir(env), warn);
  const file = fileOf(env);
  const temporary = `${file}.${randomBytes(8).toString("hex")}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(profiles, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  try {
    chmodSync(temporary, 0o600); // whatever the umask
    renameSync(temporary, file);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
  return file;
}

export interface Settings {
  baseUrl?: string;
  token?: string;
  scopes: Record<string, string | undefined>;
}

/** A console's URL as the client sends to it (scheme, host, port, path), to tell whether two name the same console. */
function consoleOf(url: string): string {
  try {
    const { protocol, host, pathname } = new URL(url);
    return `${protocol}//${host}${pathname.replace(/\/+$/, "")}`;
  } catch {
    return url;
  }
}

/**
 * The settings of one command. A stored token is bound to its profile's console, as gh binds a token to its host: it
 * goes there only, and a token or a console from elsewhere is never silently combined with a profile's.
 * - `--profile`/`RAINBOND_PROFILE` names a profile: its console, token and ids. A console from `--base-url` or
 *   `RAINBOND_URL` must be the profile's own, and `RAINBOND_TOKEN` must not be set: else refused, naming both.
 * - `RAINBOND_TOKEN` otherwise: it goes to the console of `--base-url` or `RAINBOND_URL`, which must be given; no
 *   profile is read for it.
 * - `--base-url` or `RAINBOND_URL` alone: the profile of that console (the default one, else the only one), if any.
 * - nothing: the default profile.
 * Scope ids: the environment's (`RAINBOND_TEAM`, ...), then the profile's.
 */
export function settingsOf(
  flags: { baseUrl?: string; profile?: string },
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
): Settings {
  const file = readProfiles(env, warn);
  const named = flags.profile ?? env.RAINBOND_PROFILE;
  const namedBy = flags.profile !== undefined ? `--profile ${flags.profile}` : `RAINBOND_PROFILE=${named}`;
  if (named !== undefined && !file.profiles[named]) {
    const known = Object.keys(file.profiles).join(", ") || "none; `rainbond profile add <name>` makes one";
    throw new UsageError(`no profile "${named}" (profiles: ${known})`);
  }
  const url = flags.baseUrl ?? (env.RAINBOND_URL || undefined);
  const urlFrom = flags.baseUrl !== undefined ? "--base-url" : "RAINBOND_URL";
  const token = env.RAINBOND_TOKEN || undefined;
  const forUrl = (name: string) => url !== undefined && consoleOf(file.profiles[name]!.baseUrl) === consoleOf(url);
  let name: string | undefined;
  if (named !== undefined) {
    const { baseUrl } = file.profiles[named]!;
    if (url !== undefined && !forUrl(named)) {
      throw new UsageError(
        `${urlFrom} ${url} is not the console of profile "${named}" (${baseUrl}), and its token goes there only: ` +
          `drop ${urlFrom} to use the profile, or drop ${namedBy} and set RAINBOND_TOKEN to call ${url}`,
      );
    }
    if (token) {
      throw new UsageError(
        `RAINBOND_TOKEN is set and ${namedBy} gives a token of its own for ${baseUrl}: unset RAINBOND_TOKEN to use ` +
          `the profile's, or drop ${namedBy} and give the console with --base-url or RAINBOND_URL`,
      );
    }
    name = named;
  } else if (token) {
    if (url === undefined) {
      const stored = file.default && file.profiles[file.default];
      throw new UsageError(
        "RAINBOND_TOKEN is set without its console: set RAINBOND_URL or give --base-url" +
          (stored ? ` (the default profile "${file.default}" keeps its own token for ${stored.baseUrl})` : ""),
      );
    }
  } else if (url !== undefined) {
    const matching = Object.keys(file.profiles).filter(forUrl);
    name =
      file.default && matching.includes(file.default) ? file.default : matching.length === 1 ? matching[0] : undefined;
    if (matching.length > 1 && !name) {
      throw new UsageError(
        `profiles ${matching.map((n) => `"${n}"`).join(", ")} are all for ${url}: choose one with --profile`,
      );
    }
    const stored = Object.entries(file.profiles).map(([n, p]) => `"${n}" is for ${p.baseUrl}`);
    if (!name && stored.length) {
      throw new UsageError(
        `no token for ${url} (${urlFrom}): no profile is for that console (${stored.join(", ")}; a token goes to its ` +
          `own console only). Set RAINBOND_TOKEN, or add one: rainbond profile add <name> --base-url ${url}`,
      );
    }
  } else name = file.default;
  const profile = name === undefined ? undefined : file.profiles[name];
  const scopes = Object.fromEntries(
    SCOPES.map((scope) => [scope, env[`RAINBOND_${scope.toUpperCase()}`] || profile?.[scope as keyof Profile]]),
  );
  return { baseUrl: url ?? profile?.baseUrl, token: token ?? profile?.token, scopes };
}
