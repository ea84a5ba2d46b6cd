// Reading generated/openapi.json in the tests, through the scripts' one spec walker (scripts/lib/spec.ts): operations
// by id, their success response and its example, and which operation a request went to.
import { readMethods } from "../../scripts/lib/methods.ts";
import { deref as derefIn, readSpec, refName } from "../../scripts/lib/spec.ts";
import { mockCannotAnswer } from "../../scripts/prism.ts";

export { refName };

export interface SpecSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  readOnly?: boolean;
  required?: string[];
  properties?: Record<string, SpecSchema>;
  items?: SpecSchema;
  [key: string]: unknown;
}
type Content = Record<string, { schema?: SpecSchema; example?: unknown }>;
export interface SpecOperation {
  operationId: string;
  requestBody?: { content: Content };
  responses: Record<string, { $ref?: string; content?: Content }>;
}
export interface LocatedOperation {
  operationId: string;
  /** Upper case. */
  method: string;
  path: string;
  operation: SpecOperation;
}

export interface SpecDocument {
  paths: Record<string, Record<string, SpecOperation>>;
  components: { schemas: Record<string, SpecSchema> };
}

export const spec = readSpec() as unknown as SpecDocument;

/** What a `$ref` of the spec points at (any other node as it is). */
export const deref = <T>(node: T): T => derefIn(spec, node);

/** Every operation of a bundled document with its method and path template. */
export const operationsOf = (doc: SpecDocument): LocatedOperation[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "put", "post", "delete", "patch"].includes(method))
      .map(([method, operation]) => ({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        operation,
      })),
  );

/** Every operation of the spec (generated/openapi.json) with its method and path template. */
export const specOperations: LocatedOperation[] = operationsOf(spec);

export function operationById(operationId: string): LocatedOperation {
  const found = specOperations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in generated/openapi.json`);
  return found;
}

/**
 * The example of an operation's JSON answer with `status` (e.g. Prism's answer to an invalid request); undefined for an
 * answer the spec declares without content.
 */
export function responseExample(operationId: string, status: number | string): unknown {
  const response = operationById(operationId).operation.responses[status];
  const declared = response && deref(response);
  if (declared && !declared.content) return undefined;
  const media = declared?.content?.["application/json"];
  if (!media || !("example" in media)) throw new Error(`${operationId} ${status} has no JSON example`);
  return media.example;
}

/** The operation's success (2xx) status and the example of its JSON body. */
export function successOf(operationId: string): { status: number; example: unknown } {
  const statuses = Object.keys(operationById(operationId).operation.responses).filter((s) => /^2\d\d$/.test(s));
  if (statuses.length !== 1) throw new Error(`${operationId} declares ${statuses.length} success responses`);
  return { status: Number(statuses[0]), example: responseExample(operationId, statuses[0]!) };
}

/** Which operation of the spec a request went to: by method and by matching the path against each template. */
export function operationOfRequest(method: string, url: string): string | undefined {
  const { pathname } = new URL(url);
  const matches = specOperations.filter(
    (o) =>
      o.method === method.toUpperCase() &&
      new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname),
  );
  return matches.length === 1 ? matches[0]!.operationId : undefined;
}

/** Whether Prism 5 refuses every request of an operation whatever is sent (scripts/prism.ts says why). */
export const prismCannotMatch = (operationId: string): boolean =>
  readMethods().some((m) => m.operationId === operationId && m.kind === "operation" && mockCannotAnswer(m));
