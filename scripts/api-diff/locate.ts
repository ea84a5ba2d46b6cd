// Where a change of api-smart-diff is, in this client's terms: which operation, which part of it (a parameter, the
// request body, a response, its security), which field (`monitors[].data`) and which keyword (`enum`, `required`,
// `type`, `description`, ...). The rules and the messages read these contexts, never the library's raw paths.
import type { ActionType, Diff, DiffType } from "api-smart-diff";

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
type Method = (typeof HTTP_METHODS)[number];
const isMethod = (s: unknown): s is Method => HTTP_METHODS.includes(s as Method);
const COMBINATORS = new Set<unknown>(["allOf", "anyOf", "oneOf"]);
const DOCUMENT_KEYS = new Set(["openapi", "info", "servers", "tags", "externalDocs", "jsonSchemaDialect", "webhooks"]);

type Segment = string | number;
export type Requirement = Record<string, string[]>;
type Parameter = { name: string; in: string; required?: boolean } & Record<string, unknown>;
type Operation = { operationId?: string; parameters?: Parameter[]; security?: Requirement[] } & Record<string, unknown>;
type PathItem = { parameters?: Parameter[] } & Partial<Record<Method, Operation>>;
export type OpenApiDocument = { paths?: Record<string, PathItem>; security?: Requirement[] } & Record<string, unknown>;

export interface Context {
  action: ActionType;
  before: unknown;
  after: unknown;
  libraryType: DiffType;
  path: string | null;
  method: string | null;
  operationId: string | null;
  ops?: { before?: Operation; after?: Operation };
  /** The library's path below the operation; its first `depth` segments lead to the keyword. */
  at?: Segment[];
  depth?: number;
  part: "operation" | "parameter" | "request" | "response" | "security" | "scheme" | "document" | "other";
  field?: string[];
  keyword?: Segment;
  rest?: Segment[];
  param?: Parameter;
  status?: string;
  mediaType?: Segment;
  scheme?: Segment;
}
type Where = Pick<Context, "part"> & Partial<Context>;
const PARTS = new Map<unknown, Context["part"]>([
  ["parameters", "parameter"],
  ["requestBody", "request"],
  ["responses", "response"],
]);

const child = (node: unknown, key: Segment): unknown =>
  typeof node === "object" && node !== null ? (node as Record<Segment, unknown>)[key] : undefined;

/** A field path as the changelog writes it: ["monitors", "[]", "data"] -> "monitors[].data". */
export const fieldName = (segments: string[]) => segments.join(".").replace(/\.\[\]/g, "[]");

/**
 * Where in an operation a change is (`at`: its path below `paths/<path>/<method>`): the part, the field of a schema
 * (`properties`, `items`, ...) and the keyword after it, content/<media type>/ passed by.
 */
function inOperation(at: Segment[], param?: Parameter): Where {
  if (at[0] === "security") return { part: "security", keyword: "security", depth: 1 };
  const part = PARTS.get(at[0]);
  const field: string[] = [];
  const where: Where = { part: part ?? "operation", field, ...(part === "parameter" && { param }) };
  if (part === "response" && at[1] !== undefined) where.status = String(at[1]);
  let i = part === "request" ? 1 : part ? 2 : 0;
  if (at[i] === "content") {
    where.mediaType = at[i + 1];
    if (at[i + 2] === undefined) return { ...where, keyword: "content", depth: i + 1 };
    i += 2;
  }
  if (at[i] === "headers") return { ...where, keyword: "header", rest: at.slice(i + 2), depth: i + 2 };
  if (at[i] === "schema") {
    for (i++; i < at.length; i++) {
      const s = at[i];
      if (s === "items") field.push("[]");
      else if (s === "additionalProperties") field.push("{}");
      else if (s === "properties" && i + 1 < at.length) field.push(String(at[++i]));
      else if (COMBINATORS.has(s) && i + 1 < at.length) i++;
      else break;
    }
  }
  return { ...where, keyword: at[i], rest: at.slice(i + 1), depth: i + 1 };
}

/** The node `depth` segments below a context's operation, on one side (a parameter found by name and place). */
export function nodeAt(ctx: Context, side: "before" | "after", depth: number): unknown {
  const { name, in: place } = ctx.param ?? {};
  const parameter = ctx.part === "parameter";
  if (!ctx.at) return undefined;
  const op = ctx.ops?.[side];
  let node: unknown = parameter ? op?.parameters?.find((p) => p.name === name && p.in === place) : op;
  for (const segment of ctx.at.slice(parameter ? 2 : 0, depth)) node = child(node, segment);
  return node;
}

/** The whole value of a context's keyword on one side (the whole `enum`, where the diff names one element). */
export const valueOf = (ctx: Context, side: "before" | "after") =>
  ctx.keyword === undefined ? undefined : nodeAt(ctx, side, ctx.depth ?? 0);

/** Whether a field or parameter the context adds is required on the `after` side. */
export function addedAsRequired(ctx: Context): boolean {
  if (ctx.part === "parameter" && !ctx.field?.length) return child(ctx.after, "required") === true;
  const at = ctx.at ?? [];
  if (at.at(-2) !== "properties") return false;
  const required = child(nodeAt(ctx, "after", at.length - 2), "required");
  return Array.isArray(required) && required.includes(at.at(-1));
}

const usersOfScheme = (doc: OpenApiDocument, scheme: Segment) =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]?.security?.some((r) => scheme in r)).map((m) => [path, m] as const),
  );

/**
 * The contexts of one diff: usually one; a change of a whole path item, or of a security scheme, counts once per
 * operation it reaches. `docs` are whole: the diff ran on copies without their unchanged operations (compare.ts),
 * which a changed security scheme still reaches.
 */
export function locate(diff: Diff, docs: Record<"before" | "after", OpenApiDocument>): Context[] {
  const base = { action: diff.action, before: diff.before, after: diff.after, libraryType: diff.type };
  const [top, path, method, ...rest] = diff.path;
  const operation = (p: string, m: Method, where: Where): Context => {
    const ops = { before: docs.before.paths?.[p]?.[m], after: docs.after.paths?.[p]?.[m] };
    const operationId = (ops.after ?? ops.before)?.operationId ?? null;
    return { ...base, path: p, method: m.toUpperCase(), operationId, ops, ...where };
  };
  if (top === "paths" && typeof path === "string") {
    if (!isMethod(method)) {
      // a whole path item added or removed (or a key of it that normalize() does not leave, such as `summary`)
      const item = docs[diff.action === "add" ? "after" : "before"].paths?.[path] ?? {};
      const where: Where = { part: "operation", field: [], ...(method !== undefined && { keyword: method, rest }) };
      return HTTP_METHODS.filter((m) => item[m]).map((m) => operation(path, m, where));
    }
    const ctx = operation(path, method, { part: "operation" });
    const param = ctx.ops?.[diff.action === "add" ? "after" : "before"]?.parameters?.[Number(rest[1])];
    return [{ ...ctx, ...inOperation(rest, rest[0] === "parameters" ? param : undefined), at: rest }];
  }
  if (top === "components" && path === "securitySchemes") {
    // a scheme added or removed as a whole matters only through the requirements that name it, reported on their own
    if (method === undefined || rest.length === 0) return [];
    const users = usersOfScheme(docs.after, method);
    const reached = users.length ? users : usersOfScheme(docs.before, method);
    const where = { part: "scheme", scheme: method, keyword: rest[0], rest: rest.slice(1) } as const;
    return reached.map(([p, m]) => operation(p, m, where));
  }
  // a change of the document itself (info, servers, tags), or of an extension of its components (x-console-envelope,
  // read by tools, not by the client): no operation
  const extension = top === "components" && String(path).startsWith("x-");
  const [keyword, below] = extension ? [String(path), diff.path.slice(2)] : [String(top), diff.path.slice(1)];
  const part = extension || DOCUMENT_KEYS.has(String(top)) ? "document" : "other";
  return [{ ...base, path: null, method: null, operationId: null, part, keyword, rest: below }];
}

/**
 * Whether a change only restates another: a field added to or dropped from an object's `required` list together with
 * the field itself ("field removed" says it; "may now be absent" would repeat it).
 */
export function restatesFieldChange(ctx: Context): boolean {
  if (ctx.keyword !== "required" || ctx.part === "parameter" || ctx.rest?.length !== 1) return false;
  const name = String(ctx.action === "add" ? ctx.after : ctx.before);
  const schema = nodeAt(ctx, ctx.action === "add" ? "before" : "after", (ctx.depth ?? 0) - 1);
  return schema !== undefined && !(name in ((child(schema, "properties") as object | undefined) ?? {}));
}
