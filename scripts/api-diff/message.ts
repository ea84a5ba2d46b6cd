// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// One line of the changelog for one change: what changed, named as the client's users know it (the field or
// parameter, in the spec's own spelling), with the values before and after where they are short.
import { addedAsRequired, fieldName, valueOf } from "./locate.ts";

const show = (value) => {
  if (value === undefined) return "none";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\``;
};
const showType = (type) => (type === undefined ? "any" : `\`${[].concat(type).join(" | ")}\``);
const showSecurity = (requirements) =>
  !requirements?.length || requirements.some((r) => Object.keys(r).length === 0)
    ? "none"
    : requirements
        .map((r) =>
          Object.keys(r)
            .map((s) => `\`${s}\``)
            .join(" and "),
        )
        .join(" or ");

/** What the change is in: "query parameter `step`", "request body field `port`", "response 200 field `[].protocol`". */
export function subject(ctx, field = ctx.field ?? []) {
  const name = field.length ? ` field \`${fieldName(field)}\`` : "";
  if (ctx.part === "parameter") {
    const param = `${ctx.param?.in ?? "?"} parameter \`${ctx.param?.name ?? "?"}\``;
    return field.length ? `${param}${name}` : param;
  }
  if (ctx.part === "request") return `request body${name}`;
  if (ctx.part === "response") return `response ${ctx.status ?? ""}${name}`.replace("  ", " ");
  if (ctx.part === "scheme") return `security scheme \`${ctx.scheme}\``;
  return "operation";
}

export function describe(ctx) {
  const { action, keyword } = ctx;
  if (ctx.scope === "document") return `${ctx.keyword}${ctx.rest.length ? `.${ctx.rest.join(".")}` : ""} changed`;
  if (ctx.part === "operation" && keyword === undefined) {
    const op = `\`${ctx.method} ${ctx.path}\``;
    return action === "add" ? `new operation ${op}` : `operation ${op} removed`;
  }
  if (ctx.part === "security") {
    return `security: ${showSecurity(valueOf(ctx, "before"))} -> ${showSecurity(valueOf(ctx, "after"))}`;
  }
  const what = subject(ctx);
  if (keyword === undefined) {
    if (action === "add") {
      const required = ctx.part !== "response" && addedAsRequired(ctx); // in a response, "required" means present
      return `new ${required ? "required " : ""}${what}`;
    }
    if (action === "remove") return `${what} removed`;
    return `${what} replaced`;
  }
  if (keyword === "required" && ctx.rest?.length && ctx.part !== "parameter") {
    // an object's `required` list: the change is about the field it names
    const named = subject(ctx, [...ctx.field, String(ctx.after ?? ctx.before)]);
    if (ctx.part === "response") return `${named} ${action === "add" ? "now always present" : "may now be absent"}`;
    return `${named} now ${action === "add" ? "required" : "optional"}`;
  }
  if (keyword === "required") {
    const required = valueOf(ctx, "after");
    if (Array.isArray(required)) return `${what}: required fields ${show(valueOf(ctx, "before"))} -> ${show(required)}`;
    return `${what} now ${required === true ? "required" : "optional"}`;
  }
  if (keyword === "enum") {
    if (ctx.rest?.length === 1 && action === "add") return `${what}: new value ${show(ctx.after)}`;
    if (ctx.rest?.length === 1 && action === "remove") return `${what}: value ${show(ctx.before)} removed`;
    return `${what}: allowed values ${show(valueOf(ctx, "before"))} -> ${show(valueOf(ctx, "after"))}`;
  }
  if (keyword === "type")
    return `${what}: type ${showType(valueOf(ctx, "before"))} -> ${showType(valueOf(ctx, "after"))}`;
  if (keyword === "example" || keyword === "examples") return `example of ${what} changed`;
  if (keyword === "description" || keyword === "summary" || keyword === "title") return `${keyword} of ${what} changed`;
  if (keyword === "deprecated") return `${what} ${valueOf(ctx, "after") ? "deprecated" : "no longer deprecated"}`;
  if (keyword === "content")
    return `${what}: media type \`${ctx.mediaType}\` ${action === "add" ? "added" : "removed"}`;
  // any other keyword (pattern, maximum, format, a scheme's `name`, ...): its value on each side
  const side = (name) => valueOf(ctx, name) ?? (ctx.rest?.length ? undefined : ctx[name]);
  return `${what}: ${keyword} ${show(side("before"))} -> ${show(side("after"))}`;
}
