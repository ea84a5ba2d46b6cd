// Checks a value against the validation keywords the spec gives it (generated/operations.ts), so that bad input is
// refused with a RainbondInputError naming the argument and the rule, before any request is sent.
import { RainbondInputError, type InputRule } from "../core/errors.js";
import { MASK, SENSITIVE, oneLine } from "../core/redact.js";
import type { Limit, SchemaRule } from "../core/table.js";

/** Half of a UTF-16 surrogate pair on its own: encodeURIComponent throws on it, and it is no text. */
const LONE_SURROGATE = /\p{Cs}/u;
const patterns = new Map<string, RegExp>();
const compiled = (pattern: string) =>
  patterns.get(pattern) ?? patterns.set(pattern, new RegExp(pattern, "u")).get(pattern)!;

/** The type of a value as a schema says it; an integer beyond 2^53 is no longer exact (it prints as 1e+21): a number. */
function typeOf(value: unknown): string {
  if (value === null || Array.isArray(value)) return value === null ? "null" : "array";
  if (typeof value !== "number") return typeof value;
  return Number.isSafeInteger(value) ? "integer" : Number.isFinite(value) ? "number" : "NaN";
}

/** Whether a schema's `type` (one, or any of a list) takes a value of type `actual`: an integer is a number too. */
const accepts = (type: string | readonly string[], actual: string): boolean =>
  typeof type === "string"
    ? type === actual || (type === "number" && actual === "integer")
    : type.some((one) => accepts(one, actual));

/** Where and in words how a value breaks a rule, and the rule's keyword. */
type Breach = [at: string, rule: string, keyword: InputRule];
/** Bounds: the keyword, how a message says it, and when a size (a number, a length) breaks it. */
type Limits = readonly [Limit, string, (size: number, limit: number) => boolean][];
/** The bounds of a number that path parameters and the client's own options have. */
const LIMITS: Limits = [
  ["minimum", "be at least", (size, limit) => size < limit],
  ["maximum", "be at most", (size, limit) => size > limit],
];
/**
 * The bounds only bodies and query parameters have (MORE_RULES): a number's, an array's and a string's. The generator
 * refuses a path parameter with one of them (scripts/codegen/client-table.ts), as no path parameter is checked for it.
 */
const MORE_LIMITS: Limits = [
  ["exclusiveMinimum", "be greater than", (size, limit) => size <= limit],
  ["exclusiveMaximum", "be less than", (size, limit) => size >= limit],
  ["minItems", "hold at least", (size, limit) => size < limit],
  ["maxItems", "hold at most", (size, limit) => size > limit],
  ["maxLength", "be at most", (size, limit) => size > limit],
];

/** `a string`, `an integer`, `an object`, ... */
const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** What a value is, in words: `null`, `an array`, `an integer`, ... */
export const kindOf = (value: unknown) => (value === null ? "null" : article(typeOf(value)));

/**
 * A value as the caller gave it, short and on one line: a Date as its ISO time, objects as JSON with secret fields
 * masked.
 */
export function shown(value: unknown): string {
  let text: string | undefined;
  try {
    if (typeof value === "number" || typeof value === "bigint")
      text = `${value}${typeof value === "bigint" ? "n" : ""}`;
    else if (value instanceof Date) text = Number.isNaN(value.getTime()) ? "an invalid Date" : value.toISOString();
    else
      text = JSON.stringify(value, (key, item: unknown) => (key && SENSITIVE.has(key) && item != null ? MASK : item));
  } catch {
    // a cycle, a BigInt inside: say what it is instead
  }
  text ??= typeof value === "object" && value ? (Array.isArray(value) ? "an array" : "an object") : String(value);
  return oneLine(text, 60);
}

/** ` (got <value>)` for the value at `at`; nothing when `at` names a secret field, whose members are masked. */
const got = (value: unknown, at: string) =>
  SENSITIVE.has(at.slice(at.lastIndexOf(".") + 1)) ? "" : ` (got ${shown(value)})`;

/** The member of what the caller gave that became `encoded[key]`: the caller's value where it was an object too. */
const member = (given: unknown, key: string | number) =>
  typeof given === "object" && given !== null ? (given as Record<string | number, unknown>)[key] : undefined;

/** ` (console rule: ...)` where the spec quotes the console's rule for a value, else nothing. */
export const consoleRuleOf = (rule: SchemaRule | undefined) =>
  rule?.consoleRule ? ` (console rule: ${rule.consoleRule})` : "";

/**
 * The checks of the rules that only request bodies and query parameters have (free text's Unicode, the length of a
 * string or an array, exclusiveMaximum, a member required with one `action`: `if`/`then`), which prepare.ts's
 * prepareBody and prepareQuery give check(): a bundle of operations with neither carries none of them. Path parameters
 * and the client's own options have none (generated/operations.ts; config.ts).
 */
export interface MoreRules {
  /** ` (console rule: ...)` where the spec quotes the console's rule for a value: bodies' and queries' only. */
  quote(rule: SchemaRule | undefined): string;
  /** How a value itself breaks them, once it passed the other rules of its own. */
  own(rule: SchemaRule, value: unknown, at: string, given: unknown): Breach | undefined;
  /** How an object breaks them once its members passed, `again` checking it against another rule (these included). */
  after(
    rule: SchemaRule,
    value: unknown,
    known: Rules,
    again: (rule: SchemaRule) => Breach | undefined,
  ): Breach | undefined;
}
type Rules = Readonly<Record<string, SchemaRule>>;

/** How `size` breaks one of `limits` of `rule` (`unit`: of a string or an array, whose items are not shown), or undefined. */
function outside(
  limits: Limits,
  rule: SchemaRule,
  size: number,
  unit: string,
  at: string,
  given: unknown,
): Breach | undefined {
  for (const [keyword, words, breaks] of limits) {
    const limit = rule[keyword];
    if (limit !== undefined && breaks(size, limit)) {
      return [at, `must ${words} ${limit}${unit}${unit === " items" ? "" : got(given, at)}`, keyword];
    }
  }
  return undefined;
}

export const MORE_RULES: MoreRules = {
  quote: consoleRuleOf,
  own(rule, value, at, given) {
    const text = typeof value === "string";
    // free text (a pattern or an enum already keeps these out)
    if (text && !rule.pattern && !rule.enum && LONE_SURROGATE.test(value)) {
      return [at, "must be well-formed Unicode (it holds a lone surrogate)", "format"];
    }
    // a string's size: characters as the console counts them (Python's len: code points)
    const list = Array.isArray(value);
    const size = typeof value === "number" ? value : list ? value.length : text ? [...value].length : undefined;
    const unit = list ? " items" : text ? " characters long" : "";
    return size === undefined ? undefined : outside(MORE_LIMITS, rule, size, unit, at, given);
  },
  // `then` is checked with the members' own rules at hand, whose console rules its messages quote
  after: (rule, value, known, again) =>
    rule.if && rule.then && !again(rule.if)
      ? again({ ...rule.then, properties: { ...rule.then.properties, ...known } })
      : undefined,
};

/**
 * Where and in words how `value` (as sent: a port as the string the spec wants, a Date as seconds) breaks `rule`, or
 * undefined; messages show `given`, the value as the caller gave it, and the console's rule where the spec quotes it.
 * `more`: the checks of bodies and query parameters.
 */
function breach(rule: SchemaRule, value: unknown, at: string, given: unknown, more?: MoreRules): Breach | undefined {
  const own = ownBreach(rule, value, at, given) ?? more?.own(rule, value, at, given);
  if (own) return [own[0], `${own[1]}${more?.quote(rule) ?? ""}`, own[2]];
  const items = Array.isArray(value) && rule.items ? value : [];
  for (let i = 0, found; i < items.length; i++) {
    if ((found = breach(rule.items!, items[i], `${at}[${i}]`, member(given, i) ?? items[i], more))) return found;
  }
  if (typeOf(value) !== "object") return undefined;
  const record = value as Record<string, unknown>;
  const path = (name: string) => (at ? `${at}.${name}` : name);
  const known = rule.properties ?? {};
  const missing = rule.required?.find((name) => record[name] === undefined);
  if (missing !== undefined) return [path(missing), `is required${more?.quote(known[missing]) ?? ""}`, "required"];
  const unknown = rule.closed ? Object.keys(record).find((name) => !Object.hasOwn(known, name)) : undefined;
  if (unknown !== undefined) return [path(unknown), `is not one of ${Object.keys(known).join(", ")}`, "unknown"];
  for (const [name, sub] of Object.entries(known)) {
    const found =
      record[name] === undefined
        ? undefined
        : breach(sub, record[name], path(name), member(given, name) ?? record[name], more);
    if (found) return found;
  }
  return more?.after(rule, value, known, (other) => breach(other, value, at, given, more));
}

/** How `value` itself (not its items or members) breaks `rule`'s type, enum, pattern or a number's bounds, or undefined. */
function ownBreach(rule: SchemaRule, value: unknown, at: string, given: unknown): Breach | undefined {
  const { type, pattern } = rule;
  // what the value must be, where it is not (shown as given, unless a secret field's)
  let mustBe: string | undefined;
  let keyword: InputRule = "type";
  if (type !== undefined && !accepts(type, typeOf(value))) {
    mustBe = [type].flat().map(article).join(" or ");
  } else if (rule.enum && !rule.enum.includes(value)) {
    mustBe = `one of ${rule.enum.map((v) => JSON.stringify(v)).join(", ")}`;
    keyword = "enum";
  } else if (typeof value === "string" && pattern && !compiled(pattern).test(value)) {
    mustBe = rule.patternMeans ?? `a string matching ${pattern}`;
    keyword = "pattern";
  }
  if (mustBe) return [at, `must be ${mustBe}${got(given, at)}`, keyword];
  return typeof value === "number" ? outside(LIMITS, rule, value, "", at, given) : undefined;
}

/**
 * Throws RainbondInputError when `value` breaks `rule`, showing `given` (never a secret field's value); `more`: the
 * checks of rules that only bodies and query parameters have (MORE_RULES).
 */
export function check(
  operation: string,
  argument: string,
  rule: SchemaRule,
  value: unknown,
  given: unknown = value,
  more?: MoreRules,
) {
  const found = breach(rule, value, argument, given, more);
  if (found) throw new RainbondInputError(operation, ...found);
}
