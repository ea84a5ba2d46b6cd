// How the browser tests find Chromium, and what they say when there is none.
import { describe, expect, it } from "vitest";
import { chromiumPath } from "./chromium.js";

describe("chromiumPath", () => {
  it("takes CHROMIUM_PATH when it names a file", () => {
    expect(chromiumPath({ CHROMIUM_PATH: process.execPath }, [])).toBe(process.execPath);
  });

  it("takes the first candidate that exists", () => {
    expect(chromiumPath({}, ["/nonexistent/chromium", process.execPath])).toBe(process.execPath);
  });

  it("names the install command when there is no Chromium", () => {
    expect(() => chromiumPath({}, ["/nonexistent/chromium"])).toThrow(
      /found none at \/nonexistent\/chromium\. Install it with `sudo apt-get install -y chromium`, or set CHROMIUM_PATH/,
    );
  });

  it("says so when CHROMIUM_PATH names nothing", () => {
    expect(() => chromiumPath({ CHROMIUM_PATH: "/nonexistent/chrome" }, [process.execPath])).toThrow(
      /CHROMIUM_PATH is set to \/nonexistent\/chrome, which does not exist.*sudo apt-get install -y chromium/,
    );
  });
});
