// A hostile console on 127.0.0.1 (issue 35 §3): keys and values that drive a terminal (OSC 52 clipboard writes, OSC 0
// window titles, screen clears, OSC 8 hyperlinks, one-byte C1 CSIs, bidi overrides, zero-width characters) reach the
// terminal escaped, in every format and in every message, and JSON and YAML still hold the same data. A closed pipe
// ends the command quietly, as it ends git and gh: killed by SIGPIPE, which a shell shows as 141.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { startFaultServer, type FaultServer, type SeenRequest } from "../../helpers/faults/server.js";
import { bin, rainbond, run } from "../../helpers/cli/helpers.js";

const token = "tok-CLI-HOSTILE-5a0c93e1";
const component = ["--team", "q8k2mz5d", "--region", "rainbond", "--app", "12", "--component", "gr3f9c2a"];
const ESC = "\x1b";
/** What a terminal acts on or hides, each kind once. */
const HOSTILE = {
  clipboard: `${ESC}]52;c;cm0gLXJmIH4=\x07`,
  title: `${ESC}]0;pwned\x07`,
  clear: `${ESC}[2J`,
  link: `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`,
  bidi: "a\u202emoc.live\u202c.example",
  nel: "line\u0085next",
  csi: "\u009b2J",
  zeroWidth: "ad\u200bmin\u2060\ufeff",
  separator: "a\u2028b\u2029c",
  isolate: "\u2066x\u2069\u200e\u200f\u061c",
  del: "rub\u007fout",
};
/** Any character that must never reach the terminal raw. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

const rows = [
  {
    [`${HOSTILE.clipboard}port`]: 8080,
    [`${HOSTILE.link}`]: "header",
    protocol: HOSTILE.bidi,
    [`alias${HOSTILE.title}`]: HOSTILE.clear,
    ...Object.fromEntries(Object.entries(HOSTILE).map(([name, text]) => [name, text])),
  },
];
let console: FaultServer;
let answer: (request: SeenRequest) => { status?: number; body?: unknown } = () => ({ body: rows });

beforeAll(async () => {
  console = await startFaultServer((request) => answer(request));
});
afterAll(() => console?.close());

const env = () => ({ RAINBOND_URL: console.url, RAINBOND_TOKEN: token });
const list = (...more: string[]) => rainbond(["ports", "list", ...component, ...more], { env: env() });

describe("every format escapes what the console chose, keys and values", () => {
  test("-o table: keys, headers and cells show escapes, never the characters", async () => {
    const ran = await list("-o", "table");
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    expect(ran.stdout).not.toMatch(RAW);
    expect(ran.stdout).toContain("\\x1b]52;C;CM0GLXJMIH4=\\x07PORT"); // a header, upper-cased, then escaped
    expect(ran.stdout).toContain("\\x1b]8;;HTTPS://EVIL.EXAMPLE/\\x1b\\CLICK");
    expect(ran.stdout).toContain("a\\u202emoc.live\\u202c.example");
    expect(ran.stdout).toContain("\\x1b[2J");
    expect(ran.stdout).toContain("line\\x85next");
    expect(ran.stdout).toContain("\\x9b2J");
    expect(ran.stdout).toContain("ad\\u200bmin\\u2060\\ufeff");
  });

  test("one record as keys and values, and a page's members above its list: keys escaped too", async () => {
    answer = () => ({ body: { total: 1, [`${HOSTILE.title}name`]: HOSTILE.bidi, regions: rows } });
    try {
      const ran = await rainbond(["regions", "list-for-team", "--team", "q8k2mz5d", "-o", "table"], { env: env() });
      expect(ran.stderr).toBe("");
      expect(ran.code).toBe(0);
      expect(ran.stdout).not.toMatch(RAW);
      expect(ran.stdout).toContain("\\x1b]0;pwned\\x07name: a\\u202emoc.live\\u202c.example\n");
      const one = await rainbond(
        ["regions", "list-for-team", "--team", "q8k2mz5d", "-o", "table", "--query", "regions[0]"],
        {
          env: env(),
        },
      );
      expect(one.stdout).not.toMatch(RAW);
      expect(one.stdout).toContain("\\x1b]52;c;cm0gLXJmIH4=\\x07port");
    } finally {
      answer = () => ({ body: rows });
    }
  });

  test.each(["json", "jsonl", "yaml"])(
    "-o %s: every character escaped in the format's own way, and the same data",
    async (format) => {
      const ran = await list("-o", format);
      expect([ran.code, ran.stderr]).toEqual([0, ""]);
      expect(ran.stdout).not.toMatch(RAW);
      const data =
        format === "yaml"
          ? parse(ran.stdout)
          : format === "json"
            ? JSON.parse(ran.stdout)
            : ran.stdout
                .trimEnd()
                .split("\n")
                .map((line) => JSON.parse(line));
      expect(data).toEqual(rows);
    },
  );
});

describe("messages escape what the console chose", () => {
  test("an error message quoting the console: bidi, zero-width and C1 escaped on its one line", async () => {
    answer = () => ({ status: 400, body: { code: 400, msg: `${HOSTILE.bidi} ${HOSTILE.zeroWidth} ${HOSTILE.csi}` } });
    try {
      const ran = await list("--retries", "0");
      expect(ran.code).toBe(2);
      expect(ran.stderr).not.toMatch(RAW);
      expect(ran.stderr).toContain("a\\u202emoc.live\\u202c.example");
      expect(ran.stderr.trimEnd().split("\n")).toHaveLength(1);
    } finally {
      answer = () => ({ body: rows });
    }
  });

  test("log lines escape what they quote: a retry's warning carries the console's message", async () => {
    let calls = 0;
    answer = () =>
      calls++ ? { body: rows } : { status: 503, body: { msg: `busy ${HOSTILE.bidi} ${HOSTILE.zeroWidth}` } };
    try {
      const ran = await list("--retries", "1", "-o", "json");
      expect(ran.code).toBe(0);
      expect(ran.stderr).toMatch(/^\[rainbond\] .*busy a\\u202emoc\.live\\u202c\.example.*retry 1 of 1/);
      expect(ran.stderr).not.toMatch(RAW);
    } finally {
      answer = () => ({ body: rows });
    }
  });
});

describe("a closed pipe", () => {
  /** The bin writing into a closed pipe: its first write fails with EPIPE. */
  const intoClosedPipe = async (args: string[], env: Record<string, string> = {}) => {
    const { code, signal, stderr } = await rainbond(args, { env, closedStdout: true });
    return { code, signal, stderr };
  };

  test("rainbond --help into a closed pipe ends quietly, killed by SIGPIPE as git and gh are", async () => {
    expect(await intoClosedPipe(["--help"])).toEqual({ code: null, signal: "SIGPIPE", stderr: "" });
  });

  test("a large read into `head -1` ends quietly; the shell sees 141 (128 + SIGPIPE)", async () => {
    const many = Array.from({ length: 50_000 }, (_, i) => ({ container_port: i + 1, protocol: "http" }));
    answer = () => ({ body: many });
    try {
      expect(await intoClosedPipe(["ports", "list", ...component, "-o", "jsonl"], env())).toEqual({
        code: null,
        signal: "SIGPIPE",
        stderr: "",
      });
      const line = `set -o pipefail; "$NODE" "$BIN" ports list ${component.join(" ")} -o table | head -1; echo "status $?"`;
      const shell = await run("bash", ["--norc", "--noprofile", "-c", line], {
        env: { ...env(), NODE: process.execPath, BIN: bin },
      });
      expect(shell.stdout).toMatch(/^CONTAINER_PORT\s+PROTOCOL\nstatus 141\n$/);
      expect(shell.stderr).toBe("");
    } finally {
      answer = () => ({ body: rows });
    }
  });
});
