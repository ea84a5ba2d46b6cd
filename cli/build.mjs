#!/usr/bin/env node
// Builds the bin: cli/src/cli.ts -> cli/dist/cli.js for Node >= 20, with the client (../src), the table (../generated)
// and the libraries bundled in, so that the package has no dependency to install (`npx` fetches one tarball) and
// none whose engines differ from ours. What only some runs need (YAML, JMESPath, prompts) is split into chunks loaded
// on first use, so that starting costs only what a call needs. Of the one table (generated/table.json) the bin keeps
// what the command line reads (tableForCli below), given to JSON.parse, which V8 reads faster than the same object as
// JavaScript: the MCP tools' schemas and annotations are no business of a command line. Each file is written to a
// temporary name and renamed (chunks are named by their hash), so that builds racing each other (two test files)
// never leave half a file.
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

/**
 * What the command line reads of the table (cli/src/table.ts, OperationFacts): every method, and of each operation
 * whether it may be sent twice, the console's defect and findings, its path parameters and its body's schema (which
 * members the spec knows). The rest of an operation (its MCP tool: descriptions, input and output schemas, annotations) is left out.
 */
function tableForCli({ methods, operations }) {
  const facts = ({ idempotent, defect, findings, pathParams, tool }) => ({
    idempotent,
    pathParams,
    ...(defect !== undefined && { defect }),
    ...(findings !== undefined && { findings }),
    tool: { inputSchema: { properties: { body: tool.inputSchema.properties.body } } },
  });
  return { methods, operations: Object.fromEntries(Object.entries(operations).map(([id, o]) => [id, facts(o)])) };
}

/** generated/table.json as the command line reads it (tableForCli), given to JSON.parse. */
const cliTable = {
  name: "cli-table",
  setup(build) {
    build.onLoad({ filter: /[\\/]generated[\\/]table\.json$/ }, async ({ path }) => {
      const table = tableForCli(JSON.parse(readFileSync(path, "utf8")));
      return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(table))});`, loader: "js" };
    });
  },
};
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
  plugins: [cliTable],
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
