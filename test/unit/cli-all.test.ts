// `rainbond <group> <list> --all` against a console that never ends its pages (1 MB regions, a trillion claimed):
// with `-o jsonl` each item is written as it comes, holding no page, until the iterator's byte bound ends the walk;
// any other format collects the items, within the same bounds, and writes nothing when one is passed. The command runs
// in this process (runMethod), against a loopback fault server.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { commandsByGroup } from "../../cli/src/table.js";
import { runMethod, type Io } from "../../cli/src/run.js";
import { RainbondIterationLimitError } from "../../src/index.js";
import { rejection } from "./faults/helpers.js";
import { useFaultServer } from "../helpers/faults/server.js";

const TOKEN = "tok-CLI-ALL-5d0c9e2b";
const ITEM = "m".repeat(1_000_000);
/** How many lines stdout had when each page was asked for. */
let linesWhenAsked: number[] = [];
let lines = 0;

const server = useFaultServer(({ query }) => {
  linesWhenAsked.push(lines);
  const [page, size] = [Number(query.get("page")), Number(query.get("page_size"))];
  const regions = Array.from({ length: size }, (_, i) => ({ region_id: `${page}-${i}`, region_name: ITEM }));
  return { body: { total: 1e12, regions } };
});

/** An Io whose stdout counts lines and bytes (as a pipe would take them), holding none. */
function io(): Io & { bytes: () => number; stderrText: () => string } {
  let [bytes, stderr] = [0, ""];
  const stdout = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      lines += chunk.toString().split("\n").length - 1;
      setImmediate(done); // a pipe drains later: write() says so, and the command waits for "drain"
    },
  });
  const stderrStream = new Writable({ write: (chunk, _e, done) => void ((stderr += String(chunk)), done()) });
  return {
    env: { RAINBOND_TOKEN: TOKEN, RAINBOND_CONFIG_DIR: mkdtempSync(join(tmpdir(), "rainbond-cli-all-")) },
    stdout,
    stderr: stderrStream,
    stdinText: () => "",
    stdinIsTTY: false,
    bytes: () => bytes,
    stderrText: () => stderr,
  };
}

const command = commandsByGroup()
  .get("regions")!
  .find((c) => c.name === "list-for-team")!;
const run = (output: string, out = io()) => {
  [lines, linesWhenAsked] = [0, []];
  const flags = { all: true, output, team: "q8k2mz5d", baseUrl: server.url };
  return { out, done: rejection(runMethod(command, flags, [], out)) };
};

describe("--all against a console that never ends its pages", () => {
  it("-o jsonl writes each item as it comes, and stops at the iterator's 64 MiB of items", async () => {
    const { out, done } = run("jsonl");
    const err = await done;
    expect(err).toBeInstanceOf(RainbondIterationLimitError);
    expect(err).toMatchObject({ limit: "maxBytes" });
    // each page asked for once the items before it were on stdout: no page held back
    expect(linesWhenAsked).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(lines).toBe(60);
    expect(out.bytes()).toBeGreaterThan(60_000_000);
  });

  it("-o json collects within the same bounds: the error, and nothing on stdout", async () => {
    const { out, done } = run("json");
    expect(await done).toMatchObject({ name: "RainbondIterationLimitError", limit: "maxBytes" });
    expect(linesWhenAsked).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(out.bytes()).toBe(0);
  });
});
