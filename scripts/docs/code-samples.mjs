// Code samples for the reference (Redoc's `x-codeSamples`): for every operation, how to call it with this client, in
// TypeScript, and the same request with curl. Generated, not written by hand:
//
//   the method and its arguments    the endpoint table (src/endpoints.ts, through scripts/docs/methods.mjs): the method
//                                   that calls the operation, and the kind of each argument (scope, id, options, body)
//   the values                      the spec's examples of the operation's parameters and request body
//   the curl command                the request the client itself makes with those arguments (recorded, not sent)
//
// Only the site's copy of the spec gets them (scripts/docs.mjs), not spec/ or generated/openapi.json.
// test/docs-samples.test.ts type-checks every TypeScript sample under strict against src/ and runs it against the mock.
import { clientMethods, loadClient } from "./methods.mjs";

/** Every parameter of an operation, path-level ones first, an operation's own replacing them, $refs resolved. */
function parametersOf(spec, { operation, pathItem }) {
  const resolve = (p) => (p.$ref ? spec.components.parameters[p.$ref.split("/").pop()] : p);
  const byKey = new Map();
  for (const p of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map(resolve)) {
    const key = `${p.in}:${p.name}`;
    byKey.set(key, { ...byKey.get(key), ...p, example: p.example ?? p.schema?.example ?? byKey.get(key)?.example });
  }
  return [...byKey.values()];
}

/** A query parameter's example as the client takes it: `"true"`/`"false"` flags as booleans. */
function optionValue(p) {
  if (p.schema?.enum?.length === 2 && p.schema.enum.includes("true")) return p.example === "true";
  return p.example;
}

/** The arguments of the table method that calls `operation`, from the spec's examples, as [name, value] pairs. */
function argumentsOf(spec, row, paramNames) {
  const camel = Object.fromEntries(Object.entries(paramNames).map(([c, snake]) => [snake, c]));
  const params = parametersOf(spec, row.operation);
  const own = new Set(row.endpoint.args.filter((a) => a.kind === "path").map((a) => paramNames[a.name]));
  const typed = (name, value) => (name === "app_id" ? Number(value) : value); // appId is a number in every scope
  const args = [];
  row.endpoint.args.forEach((arg, i) => {
    const param = row.params[i];
    if (arg.kind === "scope") {
      const scope = {};
      for (const p of params.filter((p) => p.in === "path" && !own.has(p.name))) {
        scope[camel[p.name] ?? p.name] = typed(p.name, p.example);
      }
      args.push([param.name, scope]);
    } else if (arg.kind === "path") {
      const p = params.find((p) => p.in === "path" && p.name === paramNames[arg.name]);
      args.push([param.name, param.type === "number" ? Number(p.example) : p.example]);
    } else if (arg.kind === "query") {
      const options = {};
      for (const p of params.filter((p) => p.in === "query" && (p.required || p.example !== undefined))) {
        options[camel[p.name] ?? p.name] = optionValue(p);
      }
      args.push([param.name, Object.keys(options).length ? options : undefined]);
    } else {
      const media = row.operation.operation.requestBody?.content?.["application/json"];
      const body = structuredClone(media?.example ?? media?.schema?.example);
      for (const key of arg.numericStrings ?? []) if (typeof body?.[key] === "string") body[key] = Number(body[key]);
      args.push([param.name, body]);
    }
  });
  while (args.length && args.at(-1)[1] === undefined) args.pop(); // options with nothing to show, at the end
  return args;
}

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

/**
 * The code samples of every operation of `spec`, by operationId: `[{ lang: "JavaScript", label: "TypeScript", source },
 * { lang: "curl", label: "curl", source }]`.
 */
export async function codeSamples(spec) {
  const { rows, paramNames } = await clientMethods(spec);
  const { createRainbondClient } = await loadClient();
  const prettier = await import("prettier");
  const baseUrl = spec.servers?.[0]?.variables?.base_url?.default ?? "http://127.0.0.1:7070";
  const samples = {};
  for (const row of rows.filter((r) => r.endpoint)) {
    const args = argumentsOf(spec, row, paramNames);
    const call = `client.${row.area}.${row.name}`;
    const scopes = args.filter(([name]) => row.params.find((p) => p.name === name)?.scope);
    const others = rows
      .filter((r) => r.via && r.operation === row.operation)
      .map((r) => `client.${r.area}.${r.name}(${r.params.map((p) => p.name + (p.optional ? "?" : "")).join(", ")})`);
    const source = [
      `import { createRainbondClient } from "rainbond-openapi";`,
      "",
      `const client = createRainbondClient({ baseUrl: ${literal(baseUrl)}, token: process.env.RAINBOND_TOKEN! });`,
      ...scopes.map(([name, value]) => `const ${name} = ${literal(value)};`),
      "",
      `const result = await ${call}(${args.map(([name, value]) => (scopes.some(([s]) => s === name) ? name : literal(value))).join(", ")});`,
      "console.log(result);",
      ...(others.length ? ["", "// also through this operation:", ...others.map((other) => `// ${other}`)] : []),
    ].join("\n");
    const typeScript = await prettier.format(source, { parser: "typescript", printWidth: 80 });
    const request = await recordRequest(createRainbondClient, baseUrl, (client) =>
      client[row.area][row.name](...row.endpoint.args.map((_, i) => args[i]?.[1]), { retries: 0 }),
    );
    samples[row.operation.operationId] = [
      // Redoc knows no TypeScript: JavaScript's highlighting, under a label of its own (scripts/docs/redocly-site.yaml)
      { lang: "JavaScript", label: "TypeScript", source: typeScript },
      { lang: "curl", label: "curl", source: curlOf(request) },
    ];
  }
  return samples;
}
