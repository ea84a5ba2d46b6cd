// `npm start -- --serve --port N` keeps the Prism mock running on 127.0.0.1:N and says how to point the client at it;
// stopping npm stops the mock too, and nothing is left behind: no process of the run, no listening port, no temporary
// copy of the spec. Each way of stopping gets a run of its own (the first alone, the others at once): SIGTERM, SIGHUP and SIGINT sent to npm's process, and
// SIGINT sent as Ctrl-C sends it, to npm's process group. (npm passes a signal on to the `sh -c` it runs a script in,
// and sh waits for its command without passing SIGINT on: so the script is `exec node ...`, and npm's child is node.)
// Linux: processes are found in /proc by their command lines. Nothing polls: the test waits for what npm prints, and
// for npm's output to close, which happens when the last process writing to it (npm, and the script it execs) ended.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, test, vi } from "vitest";
import { BUILD, GENERATE, unlessCurrent } from "../../scripts/lib/build-stamp.ts";
import { readMethods } from "../../scripts/lib/methods.ts";
import { mockCannotAnswer } from "../../scripts/prism.ts";
import { root } from "../helpers/readme.js";
import { specOperations } from "../helpers/spec.js";

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Every process whose command line holds all of `parts` as arguments: its pid and its arguments. */
function processesWith(...parts: string[]): { pid: number; args: string[] }[] {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // ended meanwhile
    }
    if (parts.every((part) => args.some((arg) => arg === part || arg.endsWith(`/${part}`))))
      found.push({ pid: Number(entry), args });
  }
  return found;
}

describe("npm start -- --serve", () => {
  const stops = [
    ["SIGTERM", "npm's process"],
    ["SIGHUP", "npm's process"],
    ["SIGINT", "npm's process"],
    ["SIGINT", "npm's process group (Ctrl-C)"],
  ] as const;
  // the first run alone (it regenerates and builds when needed), the others at the same time (nothing left to write)
  for (const [i, [signal, to]] of stops.entries()) {
    (i === 0 ? test : test.concurrent)(
      `serves the mock on --port until ${signal} is sent to ${to}, then leaves nothing behind`,
      async () => {
        const port = await freePort();
        // a process group of its own, as a shell gives the command it runs
        const npm = spawn("npm", ["start", "--", "--serve", "--port", String(port)], {
          cwd: root,
          stdio: ["ignore", "pipe", "pipe"],
          detached: true,
        });
        const url = `http://127.0.0.1:${port}`;
        let output = "";
        const closed = new Promise((resolve) => npm.once("close", resolve));
        const announced = new Promise<void>((resolve, reject) => {
          const read = (chunk: Buffer) => {
            output += chunk;
            if (output.includes(`keeps running at ${url}`)) resolve();
          };
          npm.stdout.on("data", read);
          npm.stderr.on("data", read);
          void closed.then(() => reject(new Error(`npm start ended before it served the mock:\n${output}`)));
        });
        try {
          await announced;
          expect(output).toContain(`createRainbondClient({ baseUrl: "${url}"`);
          expect(output).toContain(`Prefer: "code=404"`);
          // the generator's timings on one line, or the word that it was not needed
          expect(output).toMatch(
            /^(generate spec\/ -> generated\/: .*; steps, ms: load \d+, .*methods \d+|generated\/ is up to date .*)$/m,
          );
          expect(output).not.toMatch(/^ {2}lint +\d+ ms/m);
          // the build, or the word that it was not needed (test "npm start's build step" below); no colour in a pipe
          expect(output).toMatch(
            /^(built .* in \d+ ms|dist\/ is up to date with src\/ and generated\/: build skipped)$/m,
          );
          expect(output).not.toContain("\x1b[");
          // the first run left generated/ and dist/ current: the later ones skip both steps
          if (i > 0) expect(output).toContain(`${GENERATE.current}\n${BUILD.current}\n`);
          // every method of generated/table.json, one line each: shortcuts and the iterator too; those the mock
          // cannot answer (scripts/prism.ts) said so
          for (const method of readMethods()) {
            const word = mockCannotAnswer(method) ? "skip" : "ok";
            expect(output).toMatch(new RegExp(`^${word} +${method.name.replace(".", "\\.")} +\\S`, "m"));
          }
          expect(output).toMatch(/^ok +ports\.openOuter +Port \{ container_port: 8080,/m);
          expect(output).toMatch(/^ok +regions\.iterateForTeam +1 × TeamRegionsResp$/m);
          const skipped = readMethods().filter(mockCannotAnswer).length;
          const methods = readMethods().length - skipped;
          expect(output).toContain(
            `${methods} of ${methods} methods answered, covering the ${specOperations.length} operations of the spec` +
              ` (${skipped} the mock cannot answer, skipped)`,
          );
          expect(await listening(port)).toBe(true);
          // the mock answers as the spec says, and with an error when asked to
          const answer = await fetch(`${url}/openapi/v1/httpdomains`, { headers: { authorization: "t" } });
          expect(answer.status).toBe(200);
          const refused = await fetch(`${url}/openapi/v1/httpdomains`, {
            headers: { authorization: "t", prefer: "code=404" },
          });
          expect(refused.status).toBe(404);

          const script = processesWith("scripts/start.ts", "--serve", String(port));
          const prism = processesWith("prism-cli/dist/index.js", "mock", String(port));
          expect(script).toHaveLength(1);
          expect(prism).toHaveLength(1);
          const specCopy = prism[0]!.args.find((arg) => arg.endsWith("openapi.json"))!;
          expect(existsSync(specCopy)).toBe(true);

          if (to.includes("group")) process.kill(-npm.pid!, signal);
          else npm.kill(signal);
          await closed;
          expect(processesWith("scripts/start.ts", "--serve", String(port))).toEqual([]);
          expect(processesWith("prism-cli/dist/index.js", "mock", String(port))).toEqual([]);
          expect(await listening(port)).toBe(false);
          expect(existsSync(specCopy)).toBe(false);
        } finally {
          if (npm.exitCode === null && npm.signalCode === null) npm.kill("SIGKILL");
          // whatever the outcome, nothing of this run may outlive it
          for (const { pid } of [
            ...processesWith("scripts/start.ts", "--serve", String(port)),
            ...processesWith("prism-cli/dist/index.js", "mock", String(port)),
          ]) {
            process.kill(pid, "SIGKILL");
          }
        }
      },
      180_000,
    );
  }
});

describe("npm start's build step", () => {
  /** A project of its own: the build's inputs, and a build that writes dist/ and counts its runs. */
  function project() {
    const dir = mkdtempSync(join(tmpdir(), "rainbond-start-build-"));
    for (const [file, text] of Object.entries({
      "src/index.ts": "export const a = 1;\n",
      "generated/table.json": "[]\n",
      "tsdown.config.ts": "",
      "package.json": "{}\n",
      "tsconfig.json": "{}\n",
    })) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    let builds = 0;
    const build = () => {
      builds++;
      mkdirSync(join(dir, "dist"), { recursive: true });
      writeFileSync(join(dir, "dist/index.js"), "");
    };
    /** Runs the step; whether it built. */
    const start = () => {
      const before = builds;
      unlessCurrent(BUILD, build, dir);
      return builds > before;
    };
    return { dir, start };
  }

  test("builds once, then skips until a file under src/ or generated/ changes its bytes or dist/ goes", () => {
    const { dir, start } = project();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(start()).toBe(true);
      expect(start()).toBe(false);
      expect(log).toHaveBeenCalledWith("dist/ is up to date with src/ and generated/: build skipped");
      writeFileSync(join(dir, "src/index.ts"), "export const a = 2;\n");
      expect(start()).toBe(true);
      writeFileSync(join(dir, "generated/table.json"), "[]\n"); // written again, the same bytes
      expect(start()).toBe(false);
      writeFileSync(join(dir, "generated/table.json"), "[1]\n");
      expect(start()).toBe(true);
      rmSync(join(dir, "dist"), { recursive: true });
      expect(start()).toBe(true);
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
