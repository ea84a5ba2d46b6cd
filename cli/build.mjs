#!/usr/bin/env node
// Builds the bin: cli/src/cli.ts -> cli/dist/cli.js for Node >= 20, with the client (../src), the table (../generated)
// and the libraries bundled in, so that the package has no dependency to install (`npx` fetches one tarball) and
// none whose engines differ from ours. What only some runs need (YAML, JMESPath, prompts) is split into chunks loaded
// on first use, so that starting costs only what a call needs. Each file is written to a temporary name and renamed
// (chunks are named by their hash), so that builds racing each other (two test files) never leave half a file.
// The bundled packages' licences go to dist/THIRD-PARTY-LICENSES.txt. Prints nothing on success.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const { outputFiles, metafile } = await build({
  entryPoints: [join(here, "src", "cli.ts")],
  tsconfig: join(here, "tsconfig.json"),
  bundle: true,
  splitting: true,
  write: false,
  metafile: true,
  platform: "node",
  target: "node20",
  format: "esm",
  outdir: dist,
  chunkNames: "chunks/[name]-[hash]",
  // the CommonJS build of a library (yaml's, for Node) requires Node's modules: give the bundle a `require`
  banner: {
    js: '#!/usr/bin/env node\nimport { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);',
  },
  legalComments: "none",
  logLevel: "warning",
});

const write = (file, contents) => {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  if (file.endsWith("cli.js")) chmodSync(temporary, 0o755);
  renameSync(temporary, file);
};
// the entry last: it imports the chunks; then the chunks of earlier builds go
for (const file of outputFiles.sort((a) => (a.path.endsWith("cli.js") ? 1 : -1))) write(file.path, file.contents);
const made = new Set(outputFiles.map((file) => file.path));
for (const name of readdirSync(join(dist, "chunks"))) {
  const file = join(dist, "chunks", name);
  if (!made.has(file) && name.endsWith(".js")) rmSync(file, { force: true });
}

const packages = new Set(
  Object.keys(metafile.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []),
);
const licences = [...packages].sort().map((name) => {
  const folder = join(here, "..", "node_modules", name);
  const { version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license"].map((f) => join(folder, f)).find(existsSync);
  const text = file ? readFileSync(file, "utf8").trim() : `${license} (no licence file in the package)`;
  return `${name}@${version} (${license}), ${relative(join(here, ".."), folder)}\n\n${text}\n`;
});
write(join(dist, "THIRD-PARTY-LICENSES.txt"), licences.join(`\n${"-".repeat(80)}\n\n`));
