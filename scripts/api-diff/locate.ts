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
export type Parameter = { name: string; in: string; required?: boolean } & Record<string, unknown>;
export type Operation = { operationId?: string; parameters?: Parameter[]; security?: Requirement[] } & Record<
  string,
  unknown
>;
export type PathItem = { parameters?: Parameter[] } & Partial<Record<Method, Operation>>;
export type OpenApiDocument = { paths?: Record<string, PathItem>; security?: Requirement[] } & Record<string, unknown>;

/** The node of an operation a change is in: the operation, its request body, a response, or a parameter. */
type Container =
  | { kind: "operation" | "requestBody" }
  | { kind: "response"; status?: string }
  | { kind: "parameter"; name?: string; in?: string };

export interface Where {
  part: "operation" | "parameter" | "request" | "response" | "security" | "scheme" | "document" | "other";
  container?: Container;
  /** The segments of the path below the container; `depth` of them lead to the keyword. */
  within?: Segment[];
  depth?: number;
  field?: string[];
  keyword?: Segment;
  rest?: Segment[];
  param?: Parameter;
  status?: string;
  mediaType?: Segment;
  scheme?: Segment;
}
export interface Context extends Where {
  action: ActionType;
  before: unknown;
  after: unknown;
  libraryType: DiffType;
  scope: "operation" | "document";
  path: string | null;
  method: string | null;
  operationId: string | null;
  beforeOp?: Operation;
  afterOp?: Operation;
}

const child = (node: unknown, key: Segment): unknown =>
  typeof node === "object" && node !== null ? (node as Record<Segment, unknown>)[key] : undefined;

/** A field path as the changelog writes it: ["monitors", "[]", "data"] -> "monitors[].data". */
export const fieldName = (segments: string[]) => segments.join(".").replace(/\.\[\]/g, "[]");

/** Walks a path inside a schema: the field it names, then the keyword and what follows. */
function inSchema(segments: Segment[], offset: number): Omit<Where, "part"> {
  const field: string[] = [];
  let i = 0;
  for (let s = segments[0]; i < segments.length; s = segments[i]) {
    if (s === "properties" && i + 1 < segments.length) field.push(String(segments[++i]));
    else if (s === "items") field.push("[]");
    else if (s === "additionalProperties") field.push("{}");
    else if (COMBINATORS.has(s) && i + 1 < segments.length) i++;
    else break;
    i++;
  }
  return { field, keyword: segments[i], rest: segments.slice(i + 1), depth: offset + i + 1 };
}

/** content/<media type>/{schema|example|examples}/...; `offset`: segments of the container before `content`. */
function inMedia([, type, kind, ...more]: Segment[], offset: number): Omit<Where, "part"> {
  if (type === undefined || kind === undefined) return { keyword: "content", mediaType: type, depth: offset + 1 };
  if (kind === "schema") return { mediaType: type, ...inSchema(more, offset + 3) };
  return { mediaType: type, keyword: kind, rest: more, depth: offset + 3 };
}

/** The parts of one operation's path that follow `paths/<path>/<method>`. */
function inOperation([head, ...tail]: Segment[], diff: Diff, beforeOp?: Operation, afterOp?: Operation): Where {
  if (head === "parameters") {
    const [index, kind, ...more] = tail;
    const param = (diff.action === "add" ? afterOp : beforeOp)?.parameters?.[Number(index)];
    const container = { kind: "parameter", name: param?.name, in: param?.in } as const;
    const where: Where = { part: "parameter", param, container, field: [], depth: 0 };
    if (kind === undefined) return where;
    if (kind === "schema") return { ...where, ...inSchema(more, 1) };
    if (kind === "content") return { ...where, ...inMedia(tail.slice(1), 0) };
    return { ...where, keyword: kind, rest: more, depth: 1 };
  }
  if (head === "requestBody" || head === "responses") {
    const response = head === "responses";
    const status = response && tail[0] !== undefined ? String(tail[0]) : undefined;
    const [kind, ...more] = response ? tail.slice(1) : tail;
    const where: Where = response
      ? { part: "response", status, container: { kind: "response", status }, field: [], depth: 0 }
      : { part: "request", container: { kind: "requestBody" }, field: [], depth: 0 };
    if (kind === undefined) return where;
    if (kind === "content") return { ...where, ...inMedia([kind, ...more], 0) };
    if (kind === "headers") return { ...where, keyword: "header", rest: more.slice(1), depth: 2 };
    return { ...where, keyword: kind, rest: more, depth: 1 };
  }
  const container = { kind: "operation" } as const;
  if (head === "security") return { part: "security", container, keyword: "security", depth: 1 };
  return { part: "operation", container, field: [], keyword: head, rest: tail, depth: head === undefined ? 0 : 1 };
}

/** The node `depth` segments below a context's container, on one side. */
export function nodeAt(ctx: Context, side: "before" | "after", depth: number): unknown {
  const op = side === "before" ? ctx.beforeOp : ctx.afterOp;
  const c = ctx.container;
  if (!c || !ctx.within || !op) return undefined;
  let node: unknown = op;
  if (c.kind === "requestBody") node = op.requestBody;
  if (c.kind === "response") node = child(op.responses, c.status ?? "");
  if (c.kind === "parameter") node = op.parameters?.find((p) => p.name === c.name && p.in === c.in);
  for (const segment of ctx.within.slice(0, depth)) node = child(node, segment);
  return node;
}

/** The whole value of a context's keyword on one side (the whole `enum`, where the diff names one element). */
export const valueOf = (ctx: Context, side: "before" | "after") =>
  ctx.keyword === undefined ? undefined : nodeAt(ctx, side, ctx.depth ?? 0);

/** Whether a field or parameter the context adds is required on the `after` side. */
export function addedAsRequired(ctx: Context): boolean {
  if (ctx.part === "parameter" && !ctx.field?.length) return child(ctx.after, "required") === true;
  const within = ctx.within ?? [];
  if (within.at(-2) !== "properties") return false;
  const required = child(nodeAt(ctx, "after", within.length - 2), "required");
  return Array.isArray(required) && required.includes(within.at(-1));
}

/** The operations of a document that use a security scheme, as [path, method]. */
const usersOfScheme = (doc: OpenApiDocument, scheme: Segment) =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]?.security?.some((r) => scheme in r)).map((m) => [path, m] as const),
  );

/**
 * The contexts of one diff: usually one; a change of a whole path item, or of a security scheme, counts once per
 * operation it reaches. `before` and `after` are the documents the diff was computed on, `whole` the same before
 * unchanged operations were dropped (compare.ts): where those operations, and the users of a scheme, are read.
 */
export function locate(
  diff: Diff,
  before: OpenApiDocument,
  after: OpenApiDocument,
  whole = { before, after },
): Context[] {
  const base = { action: diff.action, before: diff.before, after: diff.after, libraryType: diff.type };
  const [top, path, method, ...rest] = diff.path;
  const operation = (p: string, m: Method, where: Where): Context => {
    const beforeOp = before.paths?.[p]?.[m] ?? whole.before.paths?.[p]?.[m];
    const afterOp = after.paths?.[p]?.[m] ?? whole.after.paths?.[p]?.[m];
    const operationId = (afterOp ?? beforeOp)?.operationId ?? null;
    return { ...base, scope: "operation", path: p, method: m.toUpperCase(), operationId, beforeOp, afterOp, ...where };
  };
  if (top === "paths" && typeof path === "string") {
    if (!isMethod(method)) {
      // a whole path item added or removed (or a key of it that normalize() does not leave, such as `summary`)
      const item = (diff.action === "add" ? after : before).paths?.[path] ?? {};
      const where: Where = { part: "operation", field: [], ...(method !== undefined && { keyword: method, rest }) };
      return HTTP_METHODS.filter((m) => item[m]).map((m) => operation(path, m, where));
    }
    const where = inOperation(rest, diff, before.paths?.[path]?.[method], after.paths?.[path]?.[method]);
    const skip = rest[0] === "parameters" || rest[0] === "responses" ? 2 : rest[0] === "requestBody" ? 1 : 0;
    return [operation(path, method, { ...where, within: rest.slice(skip) })];
  }
  if (top === "components" && path === "securitySchemes") {
    // a scheme added or removed as a whole matters only through the requirements that name it, reported on their own
    if (method === undefined || rest.length === 0) return [];
    const users = usersOfScheme(whole.after, method);
    const reached = users.length ? users : usersOfScheme(whole.before, method);
    const where = { part: "scheme", scheme: method, keyword: rest[0], rest: rest.slice(1) } as const;
    return reached.map(([p, m]) => operation(p, m, where));
  }
  // a change of the document itself (info, servers, tags), or of an extension of its components (x-console-envelope,
  // read by tools, not by the client): no operation
  const extension = top === "components" && String(path).startsWith("x-");
  const [keyword, below] = extension ? [String(path), diff.path.slice(2)] : [String(top), diff.path.slice(1)];
  const part = extension || DOCUMENT_KEYS.has(String(top)) ? "document" : "other";
  return [{ ...base, scope: "document", path: null, method: null, operationId: null, part, keyword, rest: below }];
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
