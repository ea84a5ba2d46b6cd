// One line of the changelog for one change: what changed, named as the client's users know it (the field or
// parameter, in the spec's own spelling), with the values before and after where they are short (changelog.ts puts
// the lines together).
import { addedAsRequired, fieldName, valueOf, type Context, type Requirement } from "./locate.ts";

const show = (value: unknown) => {
  if (value === undefined) return "none";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\``;
};
const showType = (type: unknown) => (type === undefined ? "any" : `\`${[type].flat().join(" | ")}\``);
const showSecurity = (requirements: unknown) => {
  const schemes = ((requirements ?? []) as Requirement[]).map((r) => Object.keys(r).map((s) => `\`${s}\``));
  return schemes.length && schemes.every((s) => s.length) ? schemes.map((s) => s.join(" and ")).join(" or ") : "none";
};

/** What the change is in: "query parameter `step`", "request body field `port`", "response 200 field `[].protocol`". */
function subject(ctx: Context, field = ctx.field ?? []) {
  const name = field.length ? ` field \`${fieldName(field)}\`` : "";
  if (ctx.part === "parameter") return `${ctx.param?.in ?? "?"} parameter \`${ctx.param?.name ?? "?"}\`${name}`;
  if (ctx.part === "request") return `request body${name}`;
  if (ctx.part === "response") return `response ${ctx.status ?? ""}${name}`.replace("  ", " ");
  if (ctx.part === "scheme") return `security scheme \`${ctx.scheme}\``;
  return "operation";
}

export function describe(ctx: Context): string {
  const { action, keyword, rest = [] } = ctx;
  const [before, after] = [valueOf(ctx, "before"), valueOf(ctx, "after")];
  if (ctx.path === null) return `${[keyword, ...rest].join(".")} changed`;
  if (ctx.part === "operation" && keyword === undefined) {
    const op = `\`${ctx.method} ${ctx.path}\``;
    return action === "add" ? `new operation ${op}` : `operation ${op} removed`;
  }
  if (ctx.part === "security") return `security: ${showSecurity(before)} -> ${showSecurity(after)}`;
  const what = subject(ctx);
  if (keyword === undefined) {
    const required = ctx.part !== "response" && addedAsRequired(ctx); // in a response, "required" means present
    if (action === "add") return `new ${required ? "required " : ""}${what}`;
    return action === "remove" ? `${what} removed` : `${what} replaced`;
  }
  if (keyword === "required" && rest.length && ctx.part !== "parameter") {
    // an object's `required` list: the change is about the field it names
    const named = subject(ctx, [...(ctx.field ?? []), String(ctx.after ?? ctx.before)]);
    if (ctx.part === "response") return `${named} ${action === "add" ? "now always present" : "may now be absent"}`;
    return `${named} now ${action === "add" ? "required" : "optional"}`;
  }
  if (keyword === "required") {
    if (Array.isArray(after)) return `${what}: required fields ${show(before)} -> ${show(after)}`;
    return `${what} now ${after === true ? "required" : "optional"}`;
  }
  if (keyword === "enum") {
    if (rest.length === 1 && action === "add") return `${what}: new value ${show(ctx.after)}`;
    if (rest.length === 1 && action === "remove") return `${what}: value ${show(ctx.before)} removed`;
    return `${what}: allowed values ${show(before)} -> ${show(after)}`;
  }
  if (keyword === "type") return `${what}: type ${showType(before)} -> ${showType(after)}`;
  if (keyword === "example" || keyword === "examples") return `example of ${what} changed`;
  if (keyword === "description" || keyword === "summary" || keyword === "title") return `${keyword} of ${what} changed`;
  if (keyword === "deprecated") return `${what} ${after ? "deprecated" : "no longer deprecated"}`;
  if (keyword === "content")
    return `${what}: media type \`${ctx.mediaType}\` ${action === "add" ? "added" : "removed"}`;
  // any other keyword (pattern, maximum, format, a scheme's `name`, ...): its value on each side
  const whole = rest.length === 0;
  return `${what}: ${keyword} ${show(before ?? (whole ? ctx.before : undefined))} -> ${show(after ?? (whole ? ctx.after : undefined))}`;
}
