// Reading generated/openapi.json: operations by id, their success response and its example, $refs, and which
// operation a request went to. Read from the bundled document at run time, never copied into the tests.
import { readFileSync } from "node:fs";

export interface SpecSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  readOnly?: boolean;
  writeOnly?: boolean;
  required?: string[];
  properties?: Record<string, SpecSchema>;
  items?: SpecSchema;
  [key: string]: unknown;
}

interface MediaType {
  schema?: SpecSchema;
  example?: unknown;
}
interface SpecResponse {
  $ref?: string;
  content?: Record<string, MediaType>;
}
export interface SpecOperation {
  operationId: string;
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, SpecResponse>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, SpecOperation>>;
  components: { schemas: Record<string, SpecSchema>; responses?: Record<string, SpecResponse> };
}

export const spec: OpenApiDocument = JSON.parse(
  readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"),
) as OpenApiDocument;

const METHODS = ["get", "put", "post", "delete", "patch"];

export interface LocatedOperation {
  operationId: string;
  method: string;
  path: string;
  operation: SpecOperation;
}

/** Every operation of the spec with its method (upper case) and path template. */
export const specOperations: LocatedOperation[] = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      operation,
    })),
);

export function operationById(operationId: string): LocatedOperation {
  const found = specOperations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in generated/openapi.json`);
  return found;
}

/** The operation's success (2xx) status and the example of its JSON body. */
export function successOf(operationId: string): { status: number; example: unknown } {
  const { operation } = operationById(operationId);
  const entries = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
  if (entries.length !== 1) throw new Error(`${operationId} declares ${entries.length} success responses`);
  const [status, response] = entries[0]!;
  const media = resolveResponse(response).content?.["application/json"];
  if (!media || !("example" in media)) throw new Error(`${operationId} ${status} has no JSON example`);
  return { status: Number(status), example: media.example };
}

/** The example of an operation's response with the given status (e.g. Prism's answer to an invalid request). */
export function responseExample(operationId: string, status: number): unknown {
  const { operation } = operationById(operationId);
  const response = operation.responses[String(status)];
  const media = response && resolveResponse(response).content?.["application/json"];
  if (!media || !("example" in media)) throw new Error(`${operationId} ${status} has no JSON example`);
  return media.example;
}

function resolveResponse(response: SpecResponse): SpecResponse {
  if (response.$ref === undefined) return response;
  const name = /^#\/components\/responses\/(.+)$/.exec(response.$ref)?.[1];
  const target = name === undefined ? undefined : spec.components.responses?.[name];
  if (!target) throw new Error(`unresolvable $ref ${response.$ref}`);
  return resolveResponse(target);
}

/** Which operation of the spec a request went to: by method and by matching the path against each template. */
export function operationOfRequest(method: string, url: string): string | undefined {
  const pathname = new URL(url).pathname;
  const matches = specOperations.filter(
    (o) =>
      o.method === method.toUpperCase() &&
      new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname),
  );
  return matches.length === 1 ? matches[0]!.operationId : undefined;
}

/** The schema a `$ref` (`#/components/schemas/Name`) points at. */
export function deref(schema: SpecSchema): SpecSchema {
  let current = schema;
  for (let i = 0; current.$ref !== undefined; i++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
    const target = name === undefined ? undefined : spec.components.schemas[name];
    if (!target || i > 20) throw new Error(`unresolvable $ref ${current.$ref}`);
    current = target;
  }
  return current;
}

/** The name of the component schema a `$ref` points at, if it is one. */
export function refName(schema: SpecSchema | undefined): string | undefined {
  return schema?.$ref ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
}
