// The API diff at the size of the console's whole Open API v1: the 84 operations described from the console
// (spec/console/) are a minor release whose changelog names each by its method; and an operation removed while the
// console overlay still acts on it is reported as removed (a major release), its stale actions named, rather than
// stopping the diff with "an action on ... changes nothing".
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  changelogMarkdown,
  clientMethods,
  diffAgainstRef,
  diffSpecs,
  type OpenApiDocument,
} from "../../../scripts/api-diff/index.ts";
import { bundleSpec } from "../../../scripts/lib/spec.ts";
import { replaceIn } from "../release/spec-edits.js";
import { createTempRepo, root, type TempRepo } from "../../helpers/release/temp-repo.js";

let repo: TempRepo;

beforeAll(async () => {
  repo = createTempRepo(["spec", "src", "generated", "redocly.yaml"]);
  // a maintainer removes updateComponentPort, which the overlay gives a shortcut and an effect
  await replaceIn(repo.dir, "spec/paths/port.yaml", /\nput:\n[\s\S]*?\ndelete:\n/, "\ndelete:\n");
}, 60_000);
afterAll(() => repo?.remove());

test("the console's own operations, added to the transcription, are a minor release naming each method", async () => {
  const before = (await bundleSpec(undefined, { console: false })) as unknown as OpenApiDocument;
  const after = (await bundleSpec()) as unknown as OpenApiDocument;
  const result = await diffSpecs(before, after, [clientMethods(root)]);
  const added = result.changes.filter((c) => /^new operation /.test(c.message));
  expect(result.bump).toBe("minor");
  expect(added).toHaveLength(84);
  expect(added.every((c) => c.level === "non-breaking" && c.methods.length > 0)).toBe(true);
  const changelog = changelogMarkdown(result);
  expect(changelog).toMatch(/^\*\*Added\*\*/);
  expect(changelog).toContain(
    "- `apps.create`: new operation `POST /openapi/v1/teams/{team_id}/regions/{region_name}/apps`",
  );
}, 120_000);

test("an operation removed while the overlay acts on it: reported removed, its stale overlay actions named", async () => {
  const result = await diffAgainstRef("HEAD", repo.dir);
  expect(result.bump).toBe("major");
  expect(result.changes).toContainEqual(
    expect.objectContaining({
      level: "breaking",
      operationId: "updateComponentPort",
      message: expect.stringMatching(/removed$/),
    }),
  );
  // its body's schema went with it: the bundle keeps only what the spec refers to
  const put =
    "$.paths['/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports/{port}'].put";
  expect(result.staleOverlayActions).toEqual([
    "$.components.schemas.UpdatePortBody",
    `${put}['x-rainbond-shortcuts'][?(@.method == 'changeAlias')]`,
    "$.components.schemas.UpdatePortBody.properties.action",
    `${put}['x-rainbond-effect'].values`,
    `${put}['x-rainbond-shortcuts']`,
  ]);
}, 120_000);
