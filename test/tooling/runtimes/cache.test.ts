// The runtime cache of the matrix (scripts/runtimes/cache.ts): where it is, that an install happens once and is
// reused, that a failed one leaves nothing behind and says what it could not install, and how a platform package's
// binary is found. npm runs offline here, against a registry address nothing listens on.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { cacheRoot, installed, platformBinary } from "../../../scripts/runtimes/cache.ts";
import { run } from "../../../scripts/lib/pack.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "rainbond-runtimes-cache-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

test("lives in $RAINBOND_RUNTIMES_CACHE, else under $XDG_CACHE_HOME, else under ~/.cache", () => {
  expect(cacheRoot({ RAINBOND_RUNTIMES_CACHE: "/c", XDG_CACHE_HOME: "/x" })).toBe("/c");
  expect(cacheRoot({ XDG_CACHE_HOME: "/x" })).toBe("/x/rainbond-openapi/runtimes");
  expect(cacheRoot({})).toMatch(/\/\.cache\/rainbond-openapi\/runtimes$/);
});

describe("installed", () => {
  test("installs a spec once into <root>/<spec> with npm, without install scripts, and reuses it", async () => {
    const calls: string[][] = [];
    const fakeNpm = async (file: string, args: readonly string[]) => {
      calls.push([file, ...args]);
      const prefix = args[args.indexOf("--prefix") + 1]!;
      await mkdir(join(prefix, "node_modules/deno"), { recursive: true });
      return { stdout: "", stderr: "" };
    };
    const first = await installed("deno@2.9.6", { root: dir, run: fakeNpm });
    const again = await installed("deno@2.9.6", { root: dir, run: fakeNpm });
    expect(first).toBe(join(dir, "deno@2.9.6"));
    expect(again).toBe(first);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual(expect.arrayContaining(["npm", "install", "--no-save", "--ignore-scripts", "deno@2.9.6"]));
    expect(existsSync(join(first, "node_modules/deno"))).toBe(true);
    expect(await readdir(dir)).toEqual(["deno@2.9.6"]);
  });

  test("fails with the spec and the reason when npm cannot install it, and leaves no half install", async () => {
    const offline = ["--offline", "--registry", "http://127.0.0.1:9/"];
    const spec = "rainbond-openapi-no-such-runtime@1.0.0";
    const failure = installed(spec, { root: dir, run, npmArgs: offline });
    await expect(failure).rejects.toThrow(`could not install ${spec} from the npm registry into ${join(dir, spec)}: `);
    await expect(failure).rejects.toThrow(/ENOTCACHED/);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("platformBinary", () => {
  test("is the binary of the one platform package npm installed", async () => {
    const bin = join(dir, "node_modules/@oven/bun-linux-x64/bin");
    await mkdir(bin, { recursive: true });
    await mkdir(join(dir, "node_modules/@oven/bun-linux-x64-musl"), { recursive: true }); // no binary: not this one
    await writeFile(join(bin, "bun"), "");
    expect(platformBinary(dir, "@oven", "bin/bun")).toBe(join(bin, "bun"));
  });

  test("fails saying where it looked when there is none", () => {
    expect(() => platformBinary(dir, "@deno", "deno")).toThrow(
      `expected one platform package with deno under ${join(dir, "node_modules/@deno")}, found 0`,
    );
  });
});
