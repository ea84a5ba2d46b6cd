// Spec mutations for the API diff tests: the bundled spec (generated/openapi.json, components and $refs as
// `npm run generate` writes them) is copied, changed the way a maintainer would change spec/ (a schema of
// components, a parameter, an operation), and compared in memory with the original.
import { root } from "../../../scripts/lib/script.ts";
import { readSpec } from "../../../scripts/lib/spec.ts";
import {
  clientMethods,
  diffSpecs,
  type Change,
  type DiffResult,
  type OpenApiDocument,
} from "../../../scripts/api-diff/index.ts";

/** A loose view of the bundled document, enough to change it. */
export interface Doc {
  info: Record<string, unknown>;
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    parameters: Record<string, Parameter>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  description?: string;
  default?: unknown;
  [key: string]: unknown;
}
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
  [key: string]: unknown;
}
export interface Operation {
  operationId: string;
  description?: string;
  parameters?: Parameter[];
  security?: Record<string, string[]>[];
  responses: Record<string, { description?: string; content?: Record<string, { example?: unknown }> }>;
  [key: string]: unknown;
}

export const base = readSpec() as unknown as Doc;
const methods = clientMethods(root);

export const PORTS = "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports";
export const RANGE = "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/monitor/query_range";

/** A parameter of an operation, declared inline (not through a $ref). */
export function param(doc: Doc, path: string, method: string, name: string): Parameter {
  const found = doc.paths[path]?.[method]?.parameters?.find((p) => p.name === name);
  if (!found) throw new Error(`no inline parameter ${name} in ${method} ${path}`);
  return found;
}

/** The API diff of the spec against a changed copy of it. */
export async function diffOf(mutate: (doc: Doc) => void): Promise<DiffResult> {
  const changed = structuredClone(base);
  mutate(changed);
  return diffSpecs(base as unknown as OpenApiDocument, changed as unknown as OpenApiDocument, [methods]);
}

/** The changes, as "level method: message" lines, for readable assertions. */
export const lines = (changes: Change[]): string[] =>
  changes.map((c) => `${c.level} ${c.methods.join(",") || c.operationId || "-"}: ${c.message}`);

/** Declares a second scheme, `Signature` (a header), and gives the ports list these security requirements. */
export function securePortsList(doc: Doc, requirements: Record<string, string[]>[]): void {
  doc.components.securitySchemes.Signature = { type: "apiKey", in: "header", name: "X-Signature" };
  doc.paths[PORTS]!.get!.security = requirements;
}
