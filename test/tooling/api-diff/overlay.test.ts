// The API diff compares the documents users get: spec/ with its console overlay applied. An overlay action is
// classified like any change of the spec: a request field it makes required is breaking, a field it lets be null in
// an answer is breaking too (a caller's code may not expect null), a new answer field is an addition.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseYaml } from "@redocly/openapi-core";
import { afterEach, beforeEach, expect, test } from "vitest";
import { diffSpecs } from "../../../scripts/api-diff/compare.ts";
import { bundleSpecDir } from "../../../scripts/api-diff/load.ts";
import { applyOverlay, OVERLAY_FILE } from "../../../scripts/lib/spec.ts";
import { clientMethods } from "../../../scripts/api-diff/load.ts";
import { lines } from "./helpers.js";
import { root } from "../../helpers/readme.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rainbond-api-diff-overlay-"));
  cpSync(join(root, "spec"), join(dir, "spec"), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The diff of the copy's spec before and after `action` is added to its overlay (written back as JSON, which YAML reads). */
async function diffOfAction(target: string, update: object) {
  const before = await bundleSpecDir(dir);
  const file = join(dir, "spec", OVERLAY_FILE);
  const overlay = parseYaml(readFileSync(file, "utf8")) as { actions: object[] };
  const about = { "x-finding": 99, "x-meets": "A test.", "x-client": "A test.", "x-evidence": ["a test"] };
  overlay.actions.push({ target, description: "A test.", ...about, update });
  writeFileSync(file, JSON.stringify(overlay));
  const after = await bundleSpecDir(dir);
  return diffSpecs(before, after, [clientMethods(root)]);
}

test("the diff's documents carry the overlay: the transcription alone differs from them", async () => {
  const overlaid = await bundleSpecDir(dir);
  rmSync(join(dir, "spec", OVERLAY_FILE));
  const transcription = await bundleSpecDir(dir);
  expect(JSON.stringify(overlaid)).toContain("only_open_outer");
  expect(JSON.stringify(transcription)).not.toContain("only_open_outer");
});

test("an overlay action that makes a request field required is breaking", async () => {
  const result = await diffOfAction("$.components.schemas.AddPortBody", { required: ["port_alias"] });
  expect(result.bump).toBe("major");
  expect(lines(result.changes)).toEqual(["breaking ports.add: request body field `port_alias` now required"]);
});

test("an overlay action that adds an answer field is an addition", async () => {
  const result = await diffOfAction("$.components.schemas.ServiceBaseInfo.properties", {
    namespace: { type: "string", description: "A test." },
  });
  expect(result.bump).toBe("minor");
  expect(result.changes.every((c) => c.level === "non-breaking")).toBe(true);
});

test("two overlays applied at once (api-diff bundles both sides together) leave console.error as it was", async () => {
  // each application swaps console.error to catch what the library reports; interleaved, one would keep the other's
  // stand-in for good, and release:check, failing, printed nothing
  const error = console.error;
  const doc = { openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {} };
  const overlay = {
    overlay: "1.1.0",
    info: { title: "o", version: "1" },
    actions: [{ target: "$.info", update: { description: "d" } }],
  };
  const [a, b] = await Promise.all([applyOverlay(doc, overlay), applyOverlay(doc, overlay)]);
  expect([a.info, b.info]).toEqual([
    expect.objectContaining({ description: "d" }),
    expect.objectContaining({ description: "d" }),
  ]);
  expect(console.error).toBe(error);
});
