// Where a command finds the console, the token and the default ids: flags, then the environment (RAINBOND_URL,
// RAINBOND_TOKEN, RAINBOND_TEAM, ...), then a profile. Profiles live in one JSON file that only its owner can read
// (0600, in a 0700 folder): $RAINBOND_CONFIG_DIR, else $XDG_CONFIG_HOME/rainbond, else ~/.config/rainbond.
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
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

/** The profiles file, or none; warns (stderr) when others can read it. */
export function readProfiles(env: NodeJS.ProcessEnv, warn: (line: string) => void): Profiles {
  const file = fileOf(env);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { profiles: {} };
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code}`);
  }
  if (process.platform !== "win32" && statSync(file).mode & 0o077) {
    warn(`${file} can be read by others than its owner: chmod 600 it (it holds API tokens)`);
  }
  try {
    const parsed = JSON.parse(text) as Profiles;
    return { ...parsed, profiles: parsed.profiles ?? {} };
  } catch {
    throw new UsageError(`${file} is not JSON: fix or remove it`);
  }
}

/** Writes the profiles file: a temporary file created 0600, then renamed over the old one. */
export function writeProfiles(env: NodeJS.ProcessEnv, profiles: Profiles): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = fileOf(env);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(profiles, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  return file;
}

export interface Settings {
  baseUrl?: string;
  token?: string;
  /** Where the token came from, for messages: never the token. */
  tokenFrom?: string;
  scopes: Record<string, string | undefined>;
}

/** The settings of one command: `flags` (base-url, profile) over the environment over the profile. */
export function settingsOf(
  flags: { baseUrl?: string; profile?: string },
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
): Settings {
  const file = readProfiles(env, warn);
  const name = flags.profile ?? env.RAINBOND_PROFILE ?? file.default;
  const profile = name === undefined ? undefined : file.profiles[name];
  if (name !== undefined && !profile && (flags.profile ?? env.RAINBOND_PROFILE)) {
    const known = Object.keys(file.profiles).join(", ") || "none; `rainbond profile add <name>` makes one";
    throw new UsageError(`no profile "${name}" (profiles: ${known})`);
  }
  const scopes = Object.fromEntries(
    SCOPES.map((scope) => [scope, env[`RAINBOND_${scope.toUpperCase()}`] || profile?.[scope as keyof Profile]]),
  );
  const token = env.RAINBOND_TOKEN || profile?.token;
  const tokenFrom = env.RAINBOND_TOKEN ? "RAINBOND_TOKEN" : profile?.token ? `profile "${name}"` : undefined;
  return { baseUrl: flags.baseUrl ?? (env.RAINBOND_URL || profile?.baseUrl), token, tokenFrom, scopes };
}
