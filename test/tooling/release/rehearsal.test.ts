// The release, rehearsed end to end in a temporary git repository made from the project (its node_modules
// linked), three times: a spec change that removes a response field (major), one that adds a field (minor), one that
// rewords a description (patch). Each goes the way a real one goes:
//   1. the maintainer's spec change is committed; the Regenerate workflow's script (npm run regenerate) regenerates,
//      writes the pull request's body to a file (in place of the GitHub call) with the API changelog first, and the
//      changeset from the API diff; the pull request is "merged" (committed);
//   2. changesets' version step (npm run release:version): package.json's version and CHANGELOG.md's entry;
//   3. the release (npm run release:pack: the tarballs of the client, the MCP server and the command line, each built
//      by `npm pack`, the MCP bundle, server.json with the bundle's SHA-256, and the notes of a version the registry
//      does not have yet), then the publish job's `npm publish <tarball>` of each, to a real registry on loopback
//      (Verdaccio, no uplink: test/tooling/release/registry.ts);
//   4. a new project installs that exact version from the registry, compiles under strict TypeScript against its
//      types (`@ts-expect-error` on the removed field; the added field typed) and calls Prism mocking that spec.
// Step 4 is one project for the three versions (each installed under an alias), one `npm install` and one `tsc`.
import { scriptArgs } from "../../../scripts/lib/script.ts";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startPrism } from "../../../scripts/prism.ts";
import { versionsIn } from "../../../scripts/release/versions.ts";
import { startRegistry, type LocalRegistry } from "./registry.js";
import { addPortField, removePortField, rewordPortDescription } from "./spec-edits.js";
import { createTempRepo, gitIdentity, root, type TempRepo } from "../../helpers/release/temp-repo.js";

const exec = promisify(execFile);
const tsc = join(root, "node_modules/typescript/bin/tsc");

type Bump = "major" | "minor" | "patch";
interface Change {
  name: string;
  bump: Bump;
  label: string;
  /** The changelog's section and the line the change must have in it. */
  section: string;
  line: string;
  /** The change to spec/, as a maintainer would make it. */
  edit(dir: string): Promise<void>;
  /** The consumer's code: main(baseUrl) returns what the test checks. */
  consumer: string;
  expectOutput: Record<string, unknown>;
  /** Text the installed package's types must hold. */
  typesHold: string;
  /** The publish job stops after the client's tarball, and the release is run again. */
  stopsHalfWay?: true;
}

const CONSUMER_HEAD = `import { createRainbondClient } from "rainbond-openapi";

export async function main(baseUrl: string): Promise<string> {
  const client = createRainbondClient({ baseUrl, token: "rehearsal-token" });
  const ports = await client.ports.list({ teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" });
  const first = ports[0]!;
  // @ts-expect-error k8s_service_name is no longer a field of Port
  const removed: unknown = first.k8s_service_name;
`;

/** From the additive change on: the new field is typed (this does not compile against an older version). */
const READS_IS_PUBLIC = `${CONSUMER_HEAD}  const isPublic: boolean | undefined = first.is_public;
  return JSON.stringify({ ports: ports.length, isPublic, removed: removed ?? null });
}
`;

const changes: Change[] = [
  {
    name: "a response field is removed",
    bump: "major",
    label: "api:breaking",
    section: "Breaking",
    line: "- `ports.list`: response 200 field `[].k8s_service_name` removed",
    edit: removePortField,
    consumer: `${CONSUMER_HEAD}  return JSON.stringify({ ports: ports.length, protocol: first.protocol, removed: removed ?? null });
}
`,
    expectOutput: { ports: 2, protocol: "http", removed: null },
    typesHold: "container_port: number;",
    stopsHalfWay: true,
  },
  {
    name: "a response field is added (marked x-since)",
    bump: "minor",
    label: "api:additive",
    section: "Added",
    line: "- `ports.list`: new response 200 field `[].is_public`",
    edit: addPortField,
    consumer: READS_IS_PUBLIC,
    expectOutput: { ports: 2, isPublic: true, removed: null },
    typesHold: "is_public?: boolean;",
  },
  {
    name: "a description is reworded",
    bump: "patch",
    label: "api:docs",
    section: "Docs only",
    line: "- `ports.list`: description of response 200 field `[].container_port` changed",
    edit: rewordPortDescription,
    consumer: READS_IS_PUBLIC,
    expectOutput: { ports: 2, isPublic: true, removed: null },
    typesHold: "/** @description The port the component listens on. */",
  },
];

/** x.y.z bumped as semver (and changesets) bump it. */
function bumped(version: string, bump: Bump): string {
  const [major, minor, patch] = version.split(".").map(Number) as [number, number, number];
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** The step output naming each tarball, and its package. */
const PUBLISHED = [
  ["tarball", "rainbond-openapi"],
  ["mcp_tarball", "rainbond-openapi-mcp"],
  ["cli_tarball", "rainbond-openapi-cli"],
] as const;

let repo: TempRepo;
let registry: LocalRegistry;
let work: string;
let seeded: Promise<unknown>;
const cleanups: (() => Promise<void>)[] = [];

/** Runs one of the project's scripts in the temporary repository, as the workflows do. */
const script = (command: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  exec(process.execPath, scriptArgs(join(repo.dir, "scripts/release/cli.ts"), command, ...args), {
    cwd: repo.dir,
    env: { ...process.env, ...gitIdentity, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
const npm = (args: string[], cwd: string) =>
  exec("npm", args, { cwd, env: { ...process.env, ...registry.env }, maxBuffer: 64 * 1024 * 1024 });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "rainbond-rehearsal-"));
  cleanups.push(() => rm(work, { recursive: true, force: true }));
  repo = createTempRepo([], { nodeModules: true });
  cleanups.push(async () => repo.remove());
  registry = await startRegistry();
  cleanups.push(() => registry.stop());
  // The registry has no uplink: the package's runtime dependencies go in from this project's node_modules, while
  // the first change goes through its steps (only the consumers need them).
  seeded = Promise.all(
    ["openapi-typescript-helpers", "openapi-fetch"].map((dependency) =>
      npm(["publish", join(root, "node_modules", dependency), "--ignore-scripts"], work),
    ),
  );
  seeded.catch(() => {}); // reported by the consumers, which await it
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The version each change published, and a copy of the spec it was generated from. */
const published = new Map<string, { version: string; spec: string }>();
/** The name a version is installed under in the consumer project (npm:rainbond-openapi@<version>). */
const alias = (version: string) => `rainbond-openapi-${version.replaceAll(".", "-")}`;
let consumer: Promise<string> | undefined;
/** The Prism mock of each version's spec, started with the consumer project (stopped after all). */
const mocks = new Map<string, ReturnType<typeof startPrism>>();

/**
 * Step 4, for every version at once: one new project installs each version published from the registry (one
 * `npm install`, each under its alias), holds each change's consumer code importing its version, and compiles them all
 * with one strict `tsc`, while the Prism mocks start. Made on the first consumer test's demand, once the releases
 * are done; its folder.
 */
async function consumerProject(): Promise<string> {
  const dir = join(work, "consumer");
  for (const { version, spec } of published.values()) {
    const mock = startPrism({ spec });
    mocks.set(version, mock);
    cleanups.push(() =>
      mock.then(
        (prism) => prism.stop(),
        () => {},
      ),
    );
  }
  const releases = changes.flatMap((change) =>
    published.has(change.name) ? [{ change, ...published.get(change.name)! }] : [],
  );
  const dependencies = Object.fromEntries(
    releases.map(({ version }) => [alias(version), `npm:rainbond-openapi@${version}`]),
  );
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }),
  );
  await seeded;
  await npm(["install", "--no-audit", "--no-fund"], dir);
  for (const { change, version } of releases) {
    await writeFile(
      join(dir, `src/${alias(version)}.ts`),
      change.consumer.replace('"rainbond-openapi"', `"${alias(version)}"`),
    );
  }
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        types: [],
        rootDir: "src",
        outDir: "out",
        noEmitOnError: true,
      },
      include: ["src"],
    }),
  );
  await exec(process.execPath, [tsc, "-p", "."], { cwd: dir });
  return dir;
}

// One release history, in its order even when the suite is shuffled: each release starts from the version the one
// before published (and the later consumers read what the earlier changes made), and the consumers' tests await the
// checks the release tests start. Nothing else in the suite depends on the order of tests.
describe(
  "the release, rehearsed: spec change -> pull request -> changeset -> version -> registry -> consumer",
  { shuffle: false },
  () => {
    for (const change of changes) {
      test(`${change.name}: ${change.bump}`, async () => {
        const before = JSON.parse(await readFile(join(repo.dir, "package.json"), "utf8")).version as string;
        const version = bumped(before, change.bump);

        // 1. the spec change, the Regenerate workflow's script, its pull request "merged"
        await change.edit(repo.dir);
        repo.commit(`spec: ${change.name}`);
        const body = join(work, `pr-body-${version}.md`);
        const outputs = join(work, `outputs-${version}`);
        await script("regenerate", ["--body", body], { GITHUB_OUTPUT: outputs });
        const text = await readFile(body, "utf8");
        expect(text.startsWith(`**${change.section}**\n\n`)).toBe(true);
        expect(text).toContain(`${change.line}\n`);
        expect(text).toMatch(/### Regenerated files[^\n]*\n\n(?: {4} M \S+\n)* {4} M generated\/openapi\.json\n/);
        expect(await readFile(outputs, "utf8")).toContain(`label=${change.label}\n`);
        const changesets = (await readdir(join(repo.dir, ".changeset"))).filter((f) => f.startsWith("api-"));
        expect(changesets).toHaveLength(1);
        const changeset = await readFile(join(repo.dir, ".changeset", changesets[0]!), "utf8");
        expect(changeset).toMatch(new RegExp(`^---\\n"rainbond-openapi": ${change.bump}\\n---\\n`));
        expect(changeset).toContain(change.line);
        repo.commit("Regenerate generated/ from spec/");

        // 2. the version step
        await script("release:version");
        const manifest = JSON.parse(await readFile(join(repo.dir, "package.json"), "utf8"));
        expect(manifest.version).toBe(version);
        const lock = JSON.parse(await readFile(join(repo.dir, "package-lock.json"), "utf8"));
        expect([lock.version, lock.packages[""].version]).toEqual([version, version]);
        const changelog = await readFile(join(repo.dir, "CHANGELOG.md"), "utf8");
        const previous = changelog.indexOf(`## ${before}\n`);
        const entry = changelog.slice(changelog.indexOf(`## ${version}\n`), previous === -1 ? undefined : previous);
        expect(entry).toContain(`### ${change.bump[0]!.toUpperCase()}${change.bump.slice(1)} Changes`);
        expect(entry).toContain(change.line);
        expect((await readdir(join(repo.dir, ".changeset"))).filter((f) => f.startsWith("api-"))).toEqual([]);
        // one version for the three packages, one CHANGELOG (the root's)
        expect(new Set(Object.values(versionsIn(repo.dir)))).toEqual(new Set([version]));
        expect(existsSync(join(repo.dir, "mcp/CHANGELOG.md")) || existsSync(join(repo.dir, "cli/CHANGELOG.md"))).toBe(
          false,
        );
        repo.commit("Version Packages");

        // 3. the release: the test job packs the version npm does not have, the publish job publishes that tarball
        const out = join(work, `release-${version}`);
        const packOutputs = join(work, `pack-outputs-${version}`);
        await script("release:pack", ["--out", out], { ...registry.env, GITHUB_OUTPUT: packOutputs });
        const packed = Object.fromEntries(
          (await readFile(packOutputs, "utf8"))
            .trim()
            .split("\n")
            .map((line) => line.split("=") as [string, string]),
        );
        const bundle = `rainbond-openapi-mcp-${version}.mcpb`;
        expect(packed).toMatchObject({ pending: "false", due: "true", version, tag: `v${version}`, bundle });
        expect(await readFile(join(out, "notes.md"), "utf8")).toContain(change.line);
        // the MCP Registry entry: the npm package and the bundle of this version, its SHA-256 the built file's
        const server = JSON.parse(await readFile(join(out, packed.server_json!), "utf8"));
        const sha256 = createHash("sha256")
          .update(await readFile(join(out, bundle)))
          .digest("hex");
        const asset = `https://github.com/rainbond-openapi/rainbond-openapi/releases/download/v${version}/${bundle}`;
        expect(server.version).toBe(version);
        expect(server.packages).toEqual([
          expect.objectContaining({ registryType: "npm", identifier: "rainbond-openapi-mcp", version }),
          { registryType: "mcpb", identifier: asset, version, fileSha256: sha256, transport: { type: "stdio" } },
        ]);
        const unpacked = join(out, "bundle");
        await exec(join(root, "node_modules/.bin/mcpb"), ["unpack", join(out, bundle), unpacked]);
        expect(JSON.parse(await readFile(join(unpacked, "manifest.json"), "utf8")).version).toBe(version);
        // the publish job: each tarball as it is; the registry then has the three packages at that version
        for (const [output, name] of PUBLISHED) {
          await npm(["publish", join(out, packed[output]!), "--access", "public"], work);
          const packument = (await (await fetch(`${registry.url}/${name}`)).json()) as { versions: object };
          expect(Object.keys(packument.versions), name).toContain(version);
          if (change.stopsHalfWay && output === "tarball") {
            // npm has the client, not the others: run again, the release is still due
            const halfWay = join(work, `half-way-outputs-${version}`);
            await script("release:pack", ["--out", join(out, "half-way")], { ...registry.env, GITHUB_OUTPUT: halfWay });
            expect(await readFile(halfWay, "utf8")).toMatch(/^pending=false\ndue=true\n/);
          }
        }
        // run again (a re-run of the workflow): the version is on the registry, nothing is packed
        await script("release:pack", ["--out", join(out, "again")], { ...registry.env, GITHUB_OUTPUT: packOutputs });
        expect(await readFile(packOutputs, "utf8")).toMatch(/\npending=false\ndue=false\n/);

        const spec = join(work, `openapi-${version}.json`);
        await copyFile(join(repo.dir, "generated/openapi.json"), spec);
        published.set(change.name, { version, spec });
      }, 240_000); // each release packs three packages and builds the bundle, twice for the one that stops half-way
    }

    for (const change of changes) {
      test(`${change.name}: a new project installs the version, compiles against its types and calls Prism`, async () => {
        const release = published.get(change.name);
        expect(release, "the release steps above failed").toBeDefined();
        const { version } = release!;
        const dir = await (consumer ??= consumerProject());
        const installed = join(dir, "node_modules", alias(version));
        expect(JSON.parse(await readFile(join(installed, "package.json"), "utf8")).version).toBe(version);
        // the entries' declarations and those of the chunks they share (dist/chunks/)
        const all = await readdir(join(installed, "dist"), { recursive: true });
        const declarations = all.filter((f) => f.endsWith(".d.ts"));
        const types = await Promise.all(declarations.map((f) => readFile(join(installed, "dist", f), "utf8")));
        expect(types.join("\n")).toContain(change.typesHold);
        const { url } = await mocks.get(version)!;
        const run = `const { main } = await import("./out/${alias(version)}.js"); console.log(await main(process.argv[1]));`;
        const { stdout } = await exec(process.execPath, ["--input-type=module", "-e", run, url], { cwd: dir });
        expect(JSON.parse(stdout)).toEqual(change.expectOutput);
      });
    }
  },
);
