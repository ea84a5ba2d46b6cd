// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Scale: the pipeline and the type-checker on synthetic specs `factor` times the real one (synthetic-spec.mjs),
// to show how their cost grows. For each factor: `node scripts/generate.ts --spec .. --out ..` (generate, after one
// untimed run that writes the files, and --check), and tsc on the generated types alone and on an openapi-fetch
// consumer calling every operation of one copy (17 calls).
import { scriptArgs } from "../lib/script.ts";
import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchCommands } from "./generation.ts";
import { runPipeline, writeSyntheticSpec } from "./synthetic-spec.ts";
import { benchPrograms } from "./typecheck.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

export async function benchScale({ factors, runs, tscRuns, workDir, warmup = true }) {
  const out = {};
  for (const factor of factors) {
    const synthetic = writeSyntheticSpec({ factor, dir: join(workDir, `synthetic-${factor}`) });
    if (warmup) {
      const first = runPipeline(synthetic);
      if (first.status !== 0)
        throw new Error(`the pipeline failed on the x${factor} spec:\n${first.stdout}${first.stderr}`);
    }
    const script = join(root, "scripts/generate.ts");
    const args = [...scriptArgs(script), "--spec", synthetic.specPath, "--out", synthetic.outDir];
    const generation = await benchCommands(
      [
        { id: "generate", label: `generate x${factor}`, command: process.execPath, args },
        { id: "check", label: `generate --check x${factor}`, command: process.execPath, args: [...args, "--check"] },
      ],
      runs,
      { warmup: false }, // the untimed run above wrote the files
    );
    const typecheck = await benchPrograms(
      [
        { id: "schemaOnly", label: `generated types only, x${factor}`, tsconfig: synthetic.tsconfigs.schemaOnly },
        { id: "openapiFetch", label: `openapi-fetch consumer, x${factor}`, tsconfig: synthetic.tsconfigs.openapiFetch },
      ],
      tscRuns,
    );
    const size = (name) => statSync(join(synthetic.outDir, name)).size;
    out[`x${factor}`] = {
      factor,
      operations: synthetic.operations,
      schemas: synthetic.schemas,
      bytes: { openapiJson: size("openapi.json"), schemaTs: size("schema.ts"), operationsTs: size("operations.ts") },
      generation,
      typecheck,
    };
  }
  return out;
}
