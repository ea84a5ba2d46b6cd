// What a change means for the users of this TypeScript client: the one place where api-smart-diff's verdict is
// corrected. The library judges a change by HTTP compatibility; a user of generated types also breaks at compile time
// (a `switch` over a response enum with a `never` check, a comparison with a value no longer in a union, a field
// that may now be `null`) and through the client's own input checks, which read the spec (generated/operations.ts).
// The first rule with a level for a change (a context of locate.ts) decides; where none has, the library's own
// verdict stands (LIBRARY_LEVELS). Each rule has a test in test/tooling/api-diff/rules.test.ts.
import type { DiffType } from "api-smart-diff";
import { valueOf, type Context, type Requirement } from "./locate.ts";

/** From the most severe down: a major, a minor and a patch bump. */
export const LEVELS = ["breaking", "non-breaking", "docs"] as const;
export type Level = (typeof LEVELS)[number];

export const LIBRARY_LEVELS: Record<DiffType, Level> = {
  breaking: "breaking",
  "non-breaking": "non-breaking",
  deprecated: "non-breaking", // a deprecation warns, the call still works: "Changed"
  annotation: "docs",
  // what the library does not classify (examples, vendor extensions, ...): rules below cover those it reports for
  // this spec; anything else is shown as a change for a maintainer to judge, never hidden as docs
  unclassified: "non-breaking",
};

const isRequestSide = (ctx: Context) => ctx.part === "request" || ctx.part === "parameter";
/** Whether the types of `wide` (a side) take every type of `narrow` (`integer` a kind of `number`): no break. */
const widens = (ctx: Context, narrow: "before" | "after", wide: "before" | "after"): Level => {
  const types = (side: "before" | "after") => [valueOf(ctx, side) ?? "any"].flat();
  const [from, to] = [types(narrow), types(wide)];
  const fits = to.includes("any") || from.every((t) => to.includes(t) || (t === "integer" && to.includes("number")));
  return fits ? "non-breaking" : "breaking";
};

/** Each rule: its level for a change it applies to, undefined for any other. */
export const RULES: { name: string; why: string; level(ctx: Context): Level | undefined }[] = [
  {
    name: "examples-are-docs",
    why: "examples are read by people and by the mock server, never by the client; the library calls some edits breaking",
    level: (ctx) => (ctx.keyword === "example" || ctx.keyword === "examples" ? "docs" : undefined),
  },
  {
    name: "points-limit",
    why: "the client refuses a range query above x-max-points-per-series before sending it: a lower limit refuses calls that passed",
    level: (ctx) => {
      if (ctx.keyword !== "x-max-points-per-series") return undefined;
      const [before, after] = [valueOf(ctx, "before"), valueOf(ctx, "after")];
      const lower = after !== undefined && (before === undefined || Number(after) < Number(before));
      return lower ? "breaking" : "non-breaking";
    },
  },
  {
    name: "sensitive-marks",
    why: "x-sensitive changes what the client masks in messages and logs: behaviour, not the API's shape",
    level: (ctx) => (ctx.keyword === "x-sensitive" || ctx.rest?.includes("x-sensitive") ? "non-breaking" : undefined),
  },
  {
    name: "other-extensions-are-docs",
    why: "the other x- keys (x-since, x-pattern-means, ...) are words for people; the client does not act on them",
    level: (ctx) => (String(ctx.keyword).startsWith("x-") ? "docs" : undefined),
  },
  {
    name: "response-enum-changes-break",
    why:
      "the generated type of a response field with an enum is a union: a new value falls through an exhaustive " +
      "`switch` (its `never` check no longer compiles), and a removed one makes `case` and `===` on it a compile error",
    level: (ctx) => (ctx.part === "response" && ctx.keyword === "enum" ? "breaking" : undefined),
  },
  {
    name: "response-type-widens",
    why: "a response field that may now be null (or another type) no longer fits the code that reads it under strict TypeScript",
    level: (ctx) => (ctx.part === "response" && ctx.keyword === "type" ? widens(ctx, "after", "before") : undefined),
  },
  {
    name: "request-type-narrows",
    why: "the client checks inputs against the spec's types: a narrower type (number -> integer) refuses calls that passed",
    level: (ctx) => (isRequestSide(ctx) && ctx.keyword === "type" ? widens(ctx, "before", "after") : undefined),
  },
  {
    name: "request-field-removed",
    why: "an object literal with a field the body type no longer has is a compile error (excess property check)",
    level: (ctx) =>
      ctx.part === "request" && ctx.action === "remove" && ctx.keyword === undefined && ctx.field?.length
        ? "breaking"
        : undefined,
  },
  {
    name: "response-defaults-are-docs",
    why: "a default in a response schema describes the server; no type and no client check reads it",
    level: (ctx) => (ctx.part === "response" && ctx.keyword === "default" ? "docs" : undefined),
  },
  {
    name: "request-default-changed",
    why:
      "a changed default changes what every call that leaves the value out gets (and the client's range check " +
      "uses the `step` default); stating a default that was not stated before changes nothing",
    level: (ctx) => {
      if (!isRequestSide(ctx) || ctx.keyword !== "default") return undefined;
      return ctx.action === "replace" ? "breaking" : "non-breaking";
    },
  },
  {
    name: "security-requirements",
    why:
      "a new scheme a call must present fails every call made without it; dropping all requirements, or adding " +
      "an alternative, fails none",
    level: (ctx) => {
      if (ctx.part !== "security") return undefined;
      const [before, after] = [valueOf(ctx, "before"), valueOf(ctx, "after")] as (Requirement[] | undefined)[];
      const open = (all = [] as Requirement[]) => all.length === 0 || all.some((r) => Object.keys(r).length === 0);
      if (open(after) || open(before)) return open(after) ? "non-breaking" : "breaking";
      // every alternative of before must still be accepted: some alternative of after asks for no more than it
      const accepted = (r: Requirement) => after!.some((a) => Object.keys(a).every((scheme) => scheme in r));
      return before!.every(accepted) ? "non-breaking" : "breaking";
    },
  },
  {
    name: "security-scheme-changed",
    why: "how a credential is sent (header name, scheme type) is what every call using the scheme sends",
    level: (ctx) => (ctx.part !== "scheme" ? undefined : ctx.keyword === "description" ? "docs" : "breaking"),
  },
  {
    name: "document-metadata-is-docs",
    why: "info, servers and tags describe the API; the client takes its base URL from the caller",
    level: (ctx) => (ctx.part === "document" ? "docs" : undefined),
  },
];
