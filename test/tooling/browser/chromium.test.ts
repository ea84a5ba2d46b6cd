// How the browser tests find Chromium, and what they say when there is none.
import { accessSync, constants } from "node:fs";
import { describe, expect, it } from "vitest";
import { chromiumPath } from "../../../scripts/lib/chromium.ts";

const never = () => Promise.reject(new Error("not expected to unpack"));

describe("chromiumPath", () => {
  it("takes CHROMIUM_PATH when it names a file, without unpacking the npm Chromium", async () => {
    await expect(chromiumPath({ CHROMIUM_PATH: process.execPath }, never)).resolves.toBe(process.execPath);
  });

  it("takes the Chromium of @sparticuz/chromium when CHROMIUM_PATH is unset", async () => {
    await expect(chromiumPath({}, async () => "/tmp/chromium")).resolves.toBe("/tmp/chromium");
  });

  it("the npm Chromium unpacks to an executable file", async () => {
    const path = await chromiumPath({});
    expect(() => accessSync(path, constants.X_OK)).not.toThrow();
  });

  it("names the fix when the npm Chromium cannot be unpacked", async () => {
    await expect(chromiumPath({}, () => Promise.reject(new Error("ENOSPC")))).rejects.toThrow(
      /@sparticuz\/chromium, which could not be unpacked \(ENOSPC\)\. Run `npm ci` again, or set CHROMIUM_PATH/,
    );
  });

  it("says so when CHROMIUM_PATH names nothing", async () => {
    await expect(chromiumPath({ CHROMIUM_PATH: "/nonexistent/chrome" }, never)).rejects.toThrow(
      /CHROMIUM_PATH is set to \/nonexistent\/chrome, which does not exist/,
    );
  });
});
