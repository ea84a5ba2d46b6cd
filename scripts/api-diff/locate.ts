// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Where a change of api-smart-diff is, in this client's terms: which operation, which part of it (a parameter, the
// request body, a response, its security), which field (`monitors[].data`, `[].protocol`) and which keyword (`enum`,
// `required`, `type`, `default`, `description`, `example`, ...). The rules (rules.mjs) and the messages (message.mjs)
// read these contexts, never the library's raw paths.
import { HTTP_METHODS } from "./bundle.ts";

const COMBINATORS = new Set(["allOf", "anyOf", "oneOf"]);
const DOCUMENT_KEYS = new Set(["openapi", "info", "servers", "tags", "externalDocs", "jsonSchemaDialect", "webhooks"]);

/** A field path as the changelog writes it: ["monitors", "[]", "data"] -> "monitors[].data". */
export const fieldName = (segments) => segments.join(".").replace(/\.\[\]/g, "[]");

/** Walks a path inside a schema: the field it names, then the keyword and what follows. */
function inSchema(segments, offset) {
  const field = [];
  let i = 0;
  while (i < segments.length) {
    const s = segments[i];
    if (s === "properties" && i + 1 < segments.length) {
      field.push(String(segments[i + 1]));
      i += 2;
    } else if (s === "items") {
      field.push("[]");
      i += 1;
    } else if (s === "additionalProperties") {
      field.push("{}");
      i += 1;
    } else if (COMBINATORS.has(s) && i + 1 < segments.length) {
      i += 2;
    } else break;
  }
  return { field, keyword: segments[i], rest: segments.slice(i + 1), depth: offset + i + 1 };
}

/**
 * The parts of one operation's path that follow `paths/<path>/<method>`. `container` says which node of the
 * operation the change is in (a parameter by name and place, the request body, a response by status) and `depth`
 * how many of the segments after it lead to the keyword, so that valueOf() can read the keyword's whole value on
 * either side even where the library's array indexes differ between them.
 */
function inOperation(rest, diff, beforeOp, afterOp) {
  const [head, ...tail] = rest;
  // content/<media type>/{schema|example|examples}/...; `offset`: segments of the container before `content`
  const media = (segments, offset) => {
    const [, type, kind, ...more] = segments;
    if (type === undefined || kind === undefined) return { keyword: "content", mediaType: type, depth: offset + 1 };
    if (kind === "schema") return { mediaType: type, ...inSchema(more, offset + 3) };
    return { mediaType: type, keyword: kind, rest: more, depth: offset + 3 };
  };
  if (head === undefined) return { part: "operation", container: { kind: "operation" }, field: [], depth: 0 };
  if (head === "parameters") {
    const [index, kind, ...more] = tail;
    const param = ((diff.action === "add" ? afterOp : beforeOp)?.parameters ?? [])[index];
    const container = { kind: "parameter", name: param?.name, in: param?.in };
    const where = { part: "parameter", param: param && { name: param.name, in: param.in }, container };
    if (kind === undefined) return { ...where, field: [], depth: 0 };
    if (kind === "schema") return { ...where, ...inSchema(more, 1) };
    if (kind === "content") return { ...where, field: [], ...media(tail.slice(1), 0) };
    return { ...where, field: [], keyword: kind, rest: more, depth: 1 };
  }
  if (head === "requestBody") {
    const [kind] = tail;
    const where = { part: "request", container: { kind: "requestBody" }, field: [] };
    if (kind === undefined) return { ...where, depth: 0 };
    if (kind === "content") return { ...where, ...media(tail, 0) };
    return { ...where, keyword: kind, rest: tail.slice(1), depth: 1 };
  }
  if (head === "responses") {
    const [status, kind, ...more] = tail;
    const code = status === undefined ? undefined : String(status);
    const where = { part: "response", status: code, container: { kind: "response", status: code }, field: [] };
    if (kind === undefined) return { ...where, depth: 0 };
    if (kind === "content") return { ...where, ...media(tail.slice(1), 0) };
    if (kind === "headers") return { ...where, keyword: "header", header: more[0], rest: more.slice(1), depth: 2 };
    return { ...where, keyword: kind, rest: more, depth: 1 };
  }
  if (head === "security") return { part: "security", container: { kind: "operation" }, keyword: "security", depth: 1 };
  return { part: "operation", container: { kind: "operation" }, field: [], keyword: head, rest: tail, depth: 1 };
}

/** The segments of an operation's path that follow the container inside it (see inOperation). */
function withinContainer(rest) {
  if (rest[0] === "parameters" || rest[0] === "responses") return rest.slice(2);
  if (rest[0] === "requestBody") return rest.slice(1);
  return rest;
}

/** The node of an operation a context's container names, on one side. */
function containerOf(op, container) {
  if (!op) return undefined;
  if (container.kind === "operation") return op;
  if (container.kind === "requestBody") return op.requestBody;
  if (container.kind === "response") return op.responses?.[container.status];
  return op.parameters?.find((p) => p.name === container.name && p.in === container.in);
}

/** The node `depth` segments below a context's container, on one side ("before" or "after"). */
export function nodeAt(ctx, side, depth) {
  if (!ctx.container || !ctx.within) return undefined;
  let node = containerOf(side === "before" ? ctx.beforeOp : ctx.afterOp, ctx.container);
  for (const segment of ctx.within.slice(0, depth)) node = node?.[segment];
  return node;
}

/**
 * The whole value of a context's keyword on one side: e.g. the whole `type` or `enum` of the field, where the diff
 * itself may name one element only. undefined where that side lacks it.
 */
export const valueOf = (ctx, side) => (ctx.keyword === undefined ? undefined : nodeAt(ctx, side, ctx.depth));

/** Whether a field or parameter the context adds is required on the `after` side. */
export function addedAsRequired(ctx) {
  if (ctx.part === "parameter" && ctx.field.length === 0) return ctx.after?.required === true;
  const within = ctx.within ?? [];
  if (within.at(-2) !== "properties") return false;
  return nodeAt(ctx, "after", within.length - 2)?.required?.includes(within.at(-1)) === true;
}

/** The operations of a document that use a security scheme, as [path, method]. */
function usersOfScheme(doc, scheme) {
  const users = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      if (item[method]?.security?.some((requirement) => scheme in requirement)) users.push([path, method]);
    }
  }
  return users;
}

/**
 * The contexts of one diff: usually one; a change of a whole path item, or of a security scheme, counts once per
 * operation it reaches. `before` and `after` are the documents the diff was computed on, `whole` the same before
 * unchanged operations were dropped (compare.mjs), where the users of a security scheme are looked up.
 */
export function locate(diff, before, after, whole = { before, after }) {
  const base = {
    action: diff.action,
    before: diff.before,
    after: diff.after,
    libraryType: diff.type,
    libraryText: diff.description,
  };
  const [top, path, method, ...rest] = diff.path;
  const operation = (p, m, ctx) => {
    // an operation dropped as unchanged (compare.mjs) is the same on both sides: read it from the whole documents
    const beforeOp = before.paths?.[p]?.[m] ?? whole.before.paths?.[p]?.[m];
    const afterOp = after.paths?.[p]?.[m] ?? whole.after.paths?.[p]?.[m];
    const op = afterOp ?? beforeOp;
    return {
      ...base,
      scope: "operation",
      path: p,
      method: m.toUpperCase(),
      operationId: op?.operationId ?? null,
      beforeOp,
      afterOp,
      ...ctx,
    };
  };
  if (top === "paths" && path !== undefined) {
    if (method === undefined || !HTTP_METHODS.includes(method)) {
      // a whole path item added or removed (or a key of it that normalize() does not leave, such as `summary`)
      const item = diff.action === "add" ? after.paths[path] : before.paths[path];
      return HTTP_METHODS.filter((m) => item?.[m]).map((m) =>
        method === undefined
          ? operation(path, m, { part: "operation", field: [] })
          : operation(path, m, { part: "operation", field: [], keyword: method, rest }),
      );
    }
    const where = inOperation(rest, diff, before.paths?.[path]?.[method], after.paths?.[path]?.[method]);
    return [operation(path, method, { ...where, within: withinContainer(rest) })];
  }
  if (top === "components" && path === "securitySchemes") {
    // a scheme added or removed as a whole matters only through the requirements that name it, reported on their own
    if (method === undefined || rest.length === 0) return [];
    const scheme = method;
    const users = usersOfScheme(whole.after, scheme);
    const reached = users.length ? users : usersOfScheme(whole.before, scheme);
    return reached.map(([p, m]) => operation(p, m, { part: "scheme", scheme, keyword: rest[0], rest: rest.slice(1) }));
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
export function restatesFieldChange(ctx) {
  if (ctx.keyword !== "required" || ctx.part === "parameter" || ctx.rest?.length !== 1) return false;
  const name = String(ctx.action === "add" ? ctx.after : ctx.before);
  const side = ctx.action === "add" ? "before" : "after";
  const schema = nodeAt(ctx, side, ctx.depth - 1);
  return schema !== undefined && !(name in (schema.properties ?? {}));
}
