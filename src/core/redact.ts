// Keeps secrets (the spec's `x-sensitive` fields, the client's token and custom headers) out of logs, error messages and
// error bodies, in any form a console may echo them in, with bounded work whatever it is given: text shown in part is
// cut before it is masked (and never inside a secret), objects walked to a depth.

/** What stands in for a secret. */
export const MASK = "[redacted]";
/**
 * Names of secret fields: those the spec marks `x-sensitive`, in requests and in records. This module lies below
 * generated code and reads none of it: src/core.ts, the entry that makes cores and exports the masking, gives it the
 * spec's names (generated/operations.ts, through secretNames) as it loads, before any core exists or any of its
 * exports runs. They are the same for every client: one set serves them all. `token` is one from the start: the client's
 * own option is named so, and a refusal of it must not show its value.
 */
export const SENSITIVE: ReadonlySet<string> = new Set<string>(["token"]);
/** The longest server text (msg, msg_show, an excerpt, a connection error's text) a message or log line shows. */
const MAX_TEXT = 500;
/** excerpt() reads this many characters of a body (and a secret that begins within them, to its end): no more. */
export const EXCERPT_SCAN = 4096;
/** A PEM private key (a region's key_file, say), even cut short. */
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;
/**
 * A secret field and its value in a text that is not JSON: `"key_file": "..."`, Python's `{'key_file': '...'}`,
 * `token=...`, or an HTML page's `key_file</td><td>'...'` once its tags are gone: the name and separator (`$1`), then
 * a quoted value (its quote `$2`; it may be cut short) or, after a separator, a bare one.
 */
let SECRET_MEMBER: RegExp;

/**
 * Adds `names` to the names of secret fields (SENSITIVE): each operation's function gives those of its request and
 * answer as it is made (internal/call.ts), the entries' masking all of the spec's (src/core.ts).
 */
export function secretNames(names: readonly string[]) {
  if (SECRET_MEMBER && names.every((name) => SENSITIVE.has(name))) return;
  for (const name of names) (SENSITIVE as Set<string>).add(name);
  SECRET_MEMBER = new RegExp(
    `(\\b(?:${[...SENSITIVE].join("|")})\\b['"]?\\s*(?:[:=]\\s*)?)(?:(["'])(?:(?!\\2)[^\\\\]|\\\\.)*\\2?|(?<=[:=]\\s*)[^\\s,;&}]+)`,
    "g",
  );
}
/** Control characters (C0, DEL, C1) and the Unicode line separators: escaped wherever server text is shown. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** The entities a page escapes quotes and `&` with, decoded in an excerpt (any other is left as it is). */
const ENTITIES: Record<string, string> = { "&quot;": '"', "&#34;": '"', "&#x27;": "'", "&#39;": "'", "&amp;": "&" };
const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** What stands in for a server traceback (an unhandled error's `msg_show`): never kept, shown or logged. */
export const TRACEBACK_NOT_KEPT = "[a server traceback, not kept]";
const TRACEBACK = "Traceback (most recent call last)";

/**
 * A deep copy of `value` with secret fields masked, `error_trace` dropped and any other server traceback replaced
 * (TRACEBACK_NOT_KEPT), and each secret string replaced, in keys too; below 32 levels, `[too deep]`. A validation
 * body's `err` holds the console's messages about fields, not their values: masked by value only. Its objects are
 * plain, and a `__proto__` key is an own member like any other: no answer sets a prototype.
 */
export function redact(value: unknown, secrets: readonly string[], depth = 0, byKey = true): unknown {
  if (typeof value === "string") return value.includes(TRACEBACK) ? TRACEBACK_NOT_KEPT : maskText(value, secrets);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= 32) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets, depth + 1, byKey));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "error_trace")
      .map(([key, item]) => [
        maskText(key, secrets),
        byKey && SENSITIVE.has(key) && item != null ? MASK : redact(item, secrets, depth + 1, byKey && key !== "err"),
      ]),
  );
}

/**
 * `secrets` plus the values of secret fields found in `values` (8 levels deep), e.g. a request's `market_access_key`,
 * so that a server echoing one in a message does not put it in an error; `secrets` itself when there is none.
 */
export function secretsIn(secrets: readonly string[], ...values: unknown[]): readonly string[] {
  let found: string[] | undefined;
  const visit = (value: unknown, depth: number) => {
    if (typeof value !== "object" || value === null || depth > 8) return;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === "string" && item && SENSITIVE.has(key)) (found ??= [...secrets]).push(item);
      else visit(item, depth + 1);
    }
  };
  for (const value of values) visit(value, 0);
  return found ?? secrets;
}

/**
 * What matches `secret` in any form a console may echo it in, case aside (`i`): as sent; upper- or lower-cased; each
 * character that is not a letter or digit escaped by a backslash, percent-encoded (once or twice, `+` for any),
 * as an HTML entity (named, decimal or hex: `&amp;`, `&#039;`, `&#x27;`) or as a `\u` or `\x` escape; and base64 or
 * base64url-encoded, at each of the three offsets it may sit at in longer encoded text (the characters that encode it
 * alone). No match is longer than the pattern's source: head() reads that far past what it shows.
 */
function formsOf(secret: string): string {
  // a long one (a private key a console sent) as it is: the other forms would make a pattern ten times its size
  if (secret.length > 4096) return secret.replace(/\W/g, "\\$&");
  const chars = [...secret].map((c) => {
    const n = c.codePointAt(0)!;
    const x = n.toString(16);
    return /[a-z\d]/i.test(c)
      ? c
      : `(?:\\\\?\\${c}|(?:%(?:25)?|\\\\[ux]0{0,2})0?${x}|&#(?:0{0,3}${n}|x0{0,3}${x});|&\\w{2,6};|\\+)`;
  });
  const bytes = new TextEncoder().encode(secret);
  // base64 of the secret after 0, 1 or 2 other bytes: the characters whose 6 bits all come from the secret
  const base64 = [0, 1, 2].map((offset) =>
    btoa(String.fromCharCode(...Array(offset).fill(0), ...bytes))
      .slice(offset && offset + 1, (((offset + bytes.length) * 4) / 3) | 0)
      .replace(/[+/]/g, "[-+/_]"),
  );
  return secret.length < 8
    ? `(?<![\\w.~+/=-])${chars.join("")}(?![\\w.~+/=-])` // a short one as a whole word only
    : [chars.join(""), ...base64].join("|");
}

/**
 * What matches each list of secrets given (formsOf), made once per list: the client passes the same few lists again and
 * again. A list is never changed once given (the entries copy their callers'); one with no secret matches nothing.
 */
const patterns = new WeakMap<readonly string[], RegExp>();
const patternOf = (secrets: readonly string[]): RegExp =>
  patterns.get(secrets) ??
  patterns.set(secrets, new RegExp(secrets.filter(Boolean).map(formsOf).join("|") || "(?!)", "gi")).get(secrets)!;

/**
 * Replaces each secret in `text`, in any form it may be echoed in (formsOf), and any PEM private key. A secret under 8
 * characters is replaced only as a whole word: a one-letter token would otherwise turn every such letter of a message
 * into `[redacted]`.
 */
export function maskText(text: string, secrets: readonly string[]): string {
  text = text.replace(patternOf(secrets), MASK);
  return text.includes("PRIVATE KEY-----") ? text.replace(PRIVATE_KEY, MASK) : text;
}

/**
 * The first `limit` characters of `text`, and a secret that begins within them to its end: what is read of a text
 * shown in part, so that no secret is shown in part and no more is read than is shown.
 */
function head(text: string, secrets: readonly string[], limit: number): string {
  const pattern = patternOf(secrets);
  let end = limit;
  for (const { index, 0: match } of text.slice(0, limit + pattern.source.length).matchAll(pattern)) {
    if (index! < limit) end = Math.max(end, index! + match.length);
  }
  return text.slice(0, end);
}

/**
 * Server text as a message or log line shows it, whatever its size: masked, cut to `max` characters, control
 * characters escaped; only what it shows is read.
 */
export const consoleText = (text: string, secrets: readonly string[], max = MAX_TEXT) =>
  oneLine(maskText(head(text, secrets, max), secrets), max);

/** Server text as a message or log line shows it: cut to `max` characters, control characters escaped. */
export function oneLine(text: string, max = MAX_TEXT): string {
  return escapeControl(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** Control characters as escapes (`\n`, `\x1b`, `\u2028`), so that server text cannot forge lines or colours. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return ESCAPES[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`);
  });
}

/**
 * A short, safe, one-line excerpt of a body that is not JSON (an HTML page, say): tags, secrets and secret fields'
 * values removed. Reads only the first EXCERPT_SCAN characters, and a secret that begins within them to its end: one
 * that begins past them is never read, not even in part. Secrets are masked as sent, as an HTML page escapes them
 * (`&amp;`, `&quot;`, `&#39;`, ...), and again once the entities are decoded.
 */
export function excerpt(text: string, secrets: readonly string[], max = 160): string {
  const plain = maskText(head(text, secrets, EXCERPT_SCAN), secrets)
    .replace(/<(script|style)\b[^<>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^<>]*>/g, " ")
    .replace(/&#?\w+;/g, (e) => ENTITIES[e] ?? e);
  const at = plain.indexOf(TRACEBACK);
  const masked = maskText(at < 0 ? plain : `${plain.slice(0, at)} ${TRACEBACK_NOT_KEPT}`, secrets)
    .replace(SECRET_MEMBER, `$1$2${MASK}$2`)
    .replace(/\s+/g, " ")
    .trim();
  return masked ? oneLine(masked, max) : "(empty body)";
}
