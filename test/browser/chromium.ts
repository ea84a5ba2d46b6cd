// Chromium for the browser tests: playwright-core driving the Chromium that `npm ci` brings (@sparticuz/chromium, a
// registry package that unpacks a self-contained build into $TMPDIR/chromium on first use), or CHROMIUM_PATH where set.
// Playwright's own browser download is not used. A guard records every page error, console error and request that
// would leave the machine.
import { existsSync } from "node:fs";
import sparticuz from "@sparticuz/chromium";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

/** An error that vitest reports by its message alone: the message says everything there is to say. */
class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SetupError";
    this.stack = `${this.name}: ${message}`;
  }
}

/** What unpacks the npm Chromium and says where it is; replaceable in tests. */
export type Unpacker = () => Promise<string>;

/** CHROMIUM_PATH if set (it must exist), else the npm registry's Chromium; a clear error naming the fix otherwise. */
export async function chromiumPath(
  env: NodeJS.ProcessEnv = process.env,
  unpack: Unpacker = () => sparticuz.executablePath(),
): Promise<string> {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new SetupError(
      `CHROMIUM_PATH is set to ${fromEnv}, which does not exist. Point it at a Chromium or Chrome executable, ` +
        "or unset it to use the Chromium that `npm ci` installs (@sparticuz/chromium).",
    );
  }
  try {
    return await unpack();
  } catch (error) {
    throw new SetupError(
      `The browser tests use the Chromium of @sparticuz/chromium, which could not be unpacked ` +
        `(${(error as Error).message}). Run \`npm ci\` again, or set CHROMIUM_PATH to a Chromium or Chrome executable.`,
    );
  }
}

/** Flags of the npm Chromium that the tests must not take: one process only breaks a second browser context, and the
 *  web-security switches would hide the CORS behaviour the browser tests are there to see. */
const UNWANTED = new Set(["--single-process", "--disable-web-security", "--allow-running-insecure-content"]);

export async function launchChromium(): Promise<Browser> {
  const executablePath = await chromiumPath();
  const fromPackage = process.env.CHROMIUM_PATH ? [] : sparticuz.args.filter((arg) => !UNWANTED.has(arg));
  return chromium.launch({
    executablePath,
    args: [
      ...fromPackage,
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** Whether loading this URL stays on the machine: file:, data:, blob:, about: or a loopback host. */
export function staysLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (["file:", "data:", "blob:", "about:"].includes(protocol)) return true;
  return (protocol === "http:" || protocol === "https:") && LOOPBACK.has(hostname);
}

export interface Guard {
  /** Requests that would have left the machine, blocked. */
  blocked: string[];
  pageErrors: string[];
  consoleErrors: string[];
  /** How many requests the guard saw (allowed or blocked): proof that it is in the way. */
  seen: number;
  /** Everything that went wrong, one line each; empty when all is well. */
  problems(): string[];
  reset(): void;
}

/**
 * Puts a guard on every page of the context, popups included: requests that would leave the machine are blocked and
 * recorded, and so are uncaught page errors and console errors.
 */
export async function guardContext(context: BrowserContext): Promise<Guard> {
  const guard: Guard = {
    blocked: [],
    pageErrors: [],
    consoleErrors: [],
    seen: 0,
    problems: () => [
      ...guard.blocked.map((url) => `blocked request: ${url}`),
      ...guard.pageErrors.map((message) => `page error: ${message}`),
      ...guard.consoleErrors.map((message) => `console error: ${message}`),
    ],
    reset() {
      guard.blocked.length = guard.pageErrors.length = guard.consoleErrors.length = 0;
    },
  };
  await context.route("**/*", (route) => {
    guard.seen++;
    const url = route.request().url();
    if (staysLocal(url)) return route.continue();
    guard.blocked.push(url);
    return route.abort("blockedbyclient");
  });
  context.on("weberror", (error) => guard.pageErrors.push(error.error().message));
  context.on("console", (message) => {
    if (message.type() === "error") guard.consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  return guard;
}
