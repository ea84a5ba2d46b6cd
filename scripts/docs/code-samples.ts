// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Code samples for the reference (Redoc's `x-codeSamples`): for every operation, how to call it with this client, in
// TypeScript, and the same request with curl. Generated, not written by hand:
//
//   the method and its arguments    generated/methods.json (through scripts/docs/methods.ts): the method that calls
//                                   the operation, its arguments by name, and the spec's example of each
//   the curl command                the request the client itself makes with those arguments (recorded, not sent)
//
// Only the site's copy of the spec gets them (scripts/docs.ts), not spec/ or generated/openapi.json.
// test/docs-samples.test.ts type-checks every TypeScript sample under strict against src/ and runs it against the mock.
import { importBundled } from "../import-bundled.ts";
import { exampleArgs } from "../lib/methods.ts";
import { clientMethods, root } from "./methods.ts";

let client;
/** createRainbondClient of src/, bundled by esbuild and loaded in this process (once): it records the curl requests. */
const loadClient = () =>
  (client ??= importBundled({
    stdin: { contents: `export { createRainbondClient } from "./src/client.ts";`, resolveDir: root, loader: "ts" },
  }));

/** A value as TypeScript source: JSON, with identifier keys unquoted. */
const literal = (value) =>
  value === undefined ? "undefined" : JSON.stringify(value).replace(/"([A-Za-z_$][\w$]*)":/g, "$1:");

/** The request the client makes for `call`, recorded by a fetch that sends nothing. */
async function recordRequest(createRainbondClient, baseUrl, call) {
  let request;
  const fetch = async (input, init = {}) => {
    request = input instanceof Request ? input : new Request(input, init);
    throw new Error("recorded, not sent");
  };
  const client = createRainbondClient({ baseUrl, token: "$RAINBOND_TOKEN", fetch, logLevel: "off" });
  const refused = await call(client).then(
    () => undefined,
    (err) => err,
  );
  if (!request) throw new Error(`the sample's call was refused: ${refused?.message}`);
  return { method: request.method, url: request.url, headers: request.headers, body: await request.text() };
}

function curlOf({ method, url, headers, body }) {
  const quote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;
  const lines = [`curl${method === "GET" ? "" : ` -X ${method}`} ${quote(url)}`];
  // the token stays a shell variable: double quotes, so that the shell fills it in
  lines.push(`-H "Authorization: ${headers.get("authorization")}"`);
  if (body) lines.push(`-H 'Content-Type: application/json'`, `-d ${quote(body)}`);
  return lines.join(" \\\n  ");
}

/** The TypeScript sample of `row` called with `args`: scope objects as named constants, other arguments inline. */
function typeScriptOf(row, args, others, baseUrl) {
  const scopes = row.args.filter((arg, i) => arg.kind === "scope" && i < args.length);
  const values = args.map((value, i) => (row.args[i].kind === "scope" ? row.args[i].name : literal(value)));
  const signature = (other) => other.args.map((arg) => arg.name + (arg.optional ? "?" : "")).join(", ");
  return [
    `import { createRainbondClient } from "rainbond-openapi";`,
    "",
    `const client = createRainbondClient({ baseUrl: ${literal(baseUrl)}, token: process.env.RAINBOND_TOKEN! });`,
    ...scopes.map((scope) => `const ${scope.name} = ${literal(scope.example)};`),
    "",
    `const result = await client.${row.name}(${values.join(", ")});`,
    "console.log(result);",
    ...(others.length ? ["", "// also through this operation:"] : []),
    ...others.map((other) => `// client.${other.name}(${signature(other)})`),
  ].join("\n");
}

/**
 * The code samples of every operation of `spec`, by operationId: `[{ lang: "JavaScript", label: "TypeScript", source },
 * { lang: "curl", label: "curl", source }]`.
 */
export async function codeSamples(spec) {
  const { rows } = clientMethods({ spec });
  const { createRainbondClient } = await loadClient();
  const prettier = await import("prettier");
  const baseUrl = spec.servers?.[0]?.variables?.base_url?.default ?? "http://127.0.0.1:7070";
  const samples = {};
  for (const row of rows.filter((r) => r.kind === "operation")) {
    const args = exampleArgs(row);
    const others = rows.filter((r) => r.kind !== "operation" && r.operationId === row.operationId);
    const source = typeScriptOf(row, args, others, baseUrl);
    const typeScript = await prettier.format(source, { parser: "typescript", printWidth: 80 });
    const padded = row.args.map((_, i) => args[i]); // then the call options
    const request = await recordRequest(createRainbondClient, baseUrl, (client) =>
      client[row.group][row.method](...padded, { retries: 0 }),
    );
    samples[row.operationId] = [
      // Redoc knows no TypeScript: JavaScript's highlighting, under a label of its own (scripts/docs/redocly-site.yaml)
      { lang: "JavaScript", label: "TypeScript", source: typeScript },
      { lang: "curl", label: "curl", source: curlOf(request) },
    ];
  }
  return samples;
}
