// Chromium for the browser tests: playwright-core driving an installed Chromium (Playwright's own browser download
// is not used), and a guard that records every page error, console error and request that would leave the machine.
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** An error that vitest reports by its message alone: the message says everything there is to say. */
class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SetupError";
    this.stack = `${this.name}: ${message}`;
  }
}

/** CHROMIUM_PATH if set, else the first installed of the candidates; a clear error naming the fix otherwise. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env, candidates: string[] = CANDIDATES): string {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new SetupError(
      `CHROMIUM_PATH is set to ${fromEnv}, which does not exist. Point it at a Chromium or Chrome executable, ` +
        "or unset it and install Chromium: sudo apt-get install -y chromium",
    );
  }
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  throw new SetupError(
    `The browser tests need Chromium and found none at ${candidates.join(", ")}. ` +
      "Install it with `sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium or Chrome executable.",
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
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
