// Code samples of every operation for the reference (docs/docs-site.md): the method's call in TypeScript, and the request
// the client makes for it (recorded, not sent) as curl. test/mock/docs-samples.test.ts type-checks and runs every sample.
import * as prettier from "prettier";
import { createRainbondClient, type RainbondClient } from "../../src/index.ts";
import { curlOf } from "../../surface/curl.ts";
import { recorder } from "../../surface/request.ts";
import { callMethod, exampleArgs } from "../lib/methods.ts";
import { MOCK_PORT } from "../prism.ts";
import { argumentNames, clientMethods, type MethodRow, type Spec } from "../lib/reference.ts";

/** Where the samples send: the mock of a clone (`npm start -- --serve`), so that they run as shown; the TypeScript
 * sample takes a console's origin from RAINBOND_URL, as the README's first call does. */
export const SAMPLES_BASE_URL = `http://127.0.0.1:${MOCK_PORT}`;

/** A code sample of an operation, as Redoc's `x-codeSamples` holds it. */
export type CodeSample = { lang: string; label: string; source: string };

/** A value as TypeScript source: JSON, with identifier keys unquoted. */
const literal = (value: unknown) =>
  value === undefined ? "undefined" : JSON.stringify(value).replace(/"([A-Za-z_$][\w$]*)":/g, "$1:");
const SAMPLE_STYLE = { parser: "typescript", printWidth: 80 };

/** The request the client makes for `call`, as curl: recorded by a fetch that sends nothing. */
async function curlSample(baseUrl: string, call: (client: RainbondClient) => PromiseLike<unknown>): Promise<string> {
  const { fetch, recorded } = recorder();
  const client = createRainbondClient({ baseUrl, token: "$RAINBOND_TOKEN", fetch, logLevel: "off" });
  const refused = await Promise.resolve(call(client)).catch(String);
  const request = recorded();
  if (!request) throw new Error(`the sample's call was refused: ${refused}`);
  return curlOf(request, { multiline: true, examples: true });
}

/** The TypeScript sample of `row` called with `args`: scope objects as named constants, other arguments inline. */
function typeScriptOf(row: MethodRow, args: unknown[], others: MethodRow[]): string {
  const scopes = row.args.filter((arg, i) => arg.kind === "scope" && i < args.length);
  const values = args.map((value, i) => (row.args[i]!.kind === "scope" ? row.args[i]!.name : literal(value)));
  return [
    `import { createRainbondClient } from "rainbond-openapi";`,
    "",
    `const baseUrl = process.env.RAINBOND_URL ?? ${literal(SAMPLES_BASE_URL)}; // the mock: npm start -- --serve`,
    `const client = createRainbondClient({ baseUrl, token: process.env.RAINBOND_TOKEN! });`,
    ...scopes.map((scope) => `const ${scope.name} = ${literal(scope.example)};`),
    "",
    `const result = await client.${row.name}(${values.join(", ")});`,
    "console.log(result);",
    ...(others.length ? ["", "// also through this operation:"] : []),
    ...others.map((other) => `// client.${other.name}(${argumentNames(other).join(", ")})`),
  ].join("\n");
}

/** Gives every operation of `spec` its code samples (`x-codeSamples`): TypeScript, then curl. */
export async function addCodeSamples(spec: Spec): Promise<void> {
  const { rows } = clientMethods({ spec });
  for (const row of rows.filter((r) => r.kind === "operation")) {
    const args = exampleArgs(row);
    const others = rows.filter((r) => r.kind !== "operation" && r.operationId === row.operationId);
    const typeScript = await prettier.format(typeScriptOf(row, args, others), SAMPLE_STYLE);
    // every argument in its place, then the call options
    const call = [...row.args.map((_, i) => args[i]), { retries: 0 }];
    spec.paths[row.operation.path]![row.operation.method.toLowerCase()]!["x-codeSamples"] = [
      // Redoc knows no TypeScript: JavaScript's highlighting, under a label of its own (scripts/docs/redocly-site.yaml)
      { lang: "JavaScript", label: "TypeScript", source: typeScript },
      {
        lang: "curl",
        label: "curl",
        source: await curlSample(SAMPLES_BASE_URL, (client) => callMethod(client, row, call)),
      },
    ] satisfies CodeSample[];
  }
}
