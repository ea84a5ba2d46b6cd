// Chromium for the browser tests and the runtime matrix: playwright-core driving the Chromium of @sparticuz/chromium
// (unpacked into $TMPDIR/chromium on first use), or CHROMIUM_PATH where set; never Playwright's own download.
import { existsSync } from "node:fs";
import sparticuz from "@sparticuz/chromium";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

/** An error that vitest reports by its message alone: the message says everything there is to say. */
const setupError = (message: string) =>
  Object.assign(new Error(message), { name: "SetupError", stack: `SetupError: ${message}` });

/** CHROMIUM_PATH if set (it must exist), else the npm registry's Chromium; a clear error naming the fix otherwise. */
export async function chromiumPath(env = process.env, unpack = () => sparticuz.executablePath()): Promise<string> {
  const fromEnv = env.CHROMIUM_PATH;
  if (!fromEnv) {
    return unpack().catch((error: Error) => {
      throw setupError(
        `The browser tests use the Chromium of @sparticuz/chromium, which could not be unpacked (${error.message}). ` +
          "Run `npm ci` again, or set CHROMIUM_PATH to a Chromium or Chrome executable.",
      );
    });
  }
  if (existsSync(fromEnv)) return fromEnv;
  throw setupError(
    `CHROMIUM_PATH is set to ${fromEnv}, which does not exist. Point it at a Chromium or Chrome executable, ` +
      "or unset it to use the Chromium that `npm ci` installs (@sparticuz/chromium).",
  );
}

/** Flags of the npm Chromium not to take: one process only breaks a second browser context, and the web-security
 *  switches would hide the CORS behaviour the browser tests are there to see. */
const UNWANTED = new Set(["--single-process", "--disable-web-security", "--allow-running-insecure-content"]);
const OWN = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"];

export async function launchChromium(): Promise<Browser> {
  const fromPackage = process.env.CHROMIUM_PATH ? [] : sparticuz.args.filter((arg) => !UNWANTED.has(arg));
  const args = [...fromPackage, ...OWN, "--disable-background-networking", "--disable-component-update"];
  return chromium.launch({ executablePath: await chromiumPath(), args });
}

const staysLocal = ({ protocol, hostname }: URL) =>
  /^(file|data|blob|about):$/.test(protocol) || (/^https?:$/.test(protocol) && LOOPBACK.includes(hostname));
const LOOPBACK = ["127.0.0.1", "localhost", "[::1]"];

export type Guard = Awaited<ReturnType<typeof guardContext>>;

/** Guards every page of the context, popups included: records page and console errors, and blocks and records requests
 *  that would leave the machine. `seen` counts the requests it saw (proof that it is in the way). */
export async function guardContext(context: BrowserContext) {
  const guard = {
    blocked: [] as string[],
    pageErrors: [] as string[],
    consoleErrors: [] as string[],
    seen: 0,
    problems: (): string[] => [
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
    if (staysLocal(new URL(route.request().url()))) return route.continue();
    guard.blocked.push(route.request().url());
    return route.abort("blockedbyclient");
  });
  context.on("weberror", (error) => guard.pageErrors.push(error.error().message));
  context.on("console", (message) => {
    if (message.type() === "error") guard.consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  return guard;
}
