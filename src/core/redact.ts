// Keeps secrets (the spec's `x-sensitive` fields and the client's token) out of logs, error messages and error bodies,
// with bounded work whatever it is given: text is cut before any regular expression runs, objects walked to a depth.

/** What stands in for a secret. */
export const MASK = "[redacted]";
/**
 * Names of secret fields: those the spec marks `x-sensitive`, in requests and in records. This module lies below
 * generated code and reads none of it: src/core.ts, the entry that makes cores and exports the masking, gives it the
 * spec's names (generated/operations.ts, through secretNames) as it loads, before any core exists or any of its
 * exports runs. They are the same for every client: one set serves them all.
 */
export const SENSITIVE: ReadonlySet<string> = new Set<string>();
/** The longest server text (msg, msg_show, an excerpt, a connection error's text) a message or log line shows. */
const MAX_TEXT = 500;
/** excerpt() reads this many characters of a body (and a secret that begins within them, to its end): no more. */
export const EXCERPT_SCAN = 4096;
/** A PEM private key (a region's key_file, say), even cut short. */
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;
/**
 * A secret field and its value in a text that is not JSON: `"key_file": "..."`, Python's `{'key_file': '...'}`,
 * `token=...`, or an HTML page's `key_file</td><td>'...'` once its tags are gone. The value may be cut short.
 */
const QUOTED = `"(?:[^"\\\\]|\\\\.)*"?|'(?:[^'\\\\]|\\\\.)*'?`;
let SECRET_MEMBER: RegExp;

/**
 * Adds `names` to the names of secret fields (SENSITIVE): each operation's function gives those of its request and
 * answer as it is made (internal/call.ts), the entries' masking all of the spec's (src/core.ts).
 */
export function secretNames(names: readonly string[]) {
  if (names.every((name) => SENSITIVE.has(name))) return;
  for (const name of names) (SENSITIVE as Set<string>).add(name);
  SECRET_MEMBER = new RegExp(
    `(\\b(?:${[...SENSITIVE].join("|")})\\b['"]?\\s*)(?:([:=]\\s*)(${QUOTED}|[^\\s,;&}]+)|(${QUOTED}))`,
    "g",
  );
}
/** Control characters (C0, DEL, C1) and the Unicode line separators: escaped wherever server text is shown. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const ENTITIES: Record<string, string> = { "&quot;": '"', "&#34;": '"', "&#x27;": "'", "&#39;": "'", "&amp;": "&" };
// written out, not built from ENTITIES: a statement that calls nothing, so that a bundle without masking drops it
const ENTITY = /&quot;|&#34;|&#x27;|&#39;|&amp;/g;
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
 * Replaces each secret in `text`, and any PEM private key. A secret under 8 characters is replaced only as a whole
 * word: a one-letter token would otherwise turn every such letter of a message into `[redacted]`.
 */
export function maskText(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) {
    if (!secret || !text.includes(secret)) continue;
    text =
      secret.length >= 8
        ? text.split(secret).join(MASK)
        : text.replace(new RegExp(`(?<![\\w.~+/=-])${secret.replace(/[^\w]/g, "\\$&")}(?![\\w.~+/=-])`, "g"), MASK);
  }
  return text.includes("PRIVATE KEY-----") ? text.replace(PRIVATE_KEY, MASK) : text;
}

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
  const hidden = secrets.flatMap((secret) => [secret, ...htmlEscaped(secret)]);
  let end = EXCERPT_SCAN; // or the end of a secret that begins before it
  for (const secret of hidden) {
    const at = text.lastIndexOf(secret, EXCERPT_SCAN - 1);
    if (at >= 0) end = Math.max(end, at + secret.length);
  }
  const plain = maskText(text.slice(0, end), hidden)
    .replace(/<(script|style)\b[^<>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^<>]*>/g, " ")
    .replace(ENTITY, (e) => ENTITIES[e]!);
  const at = plain.indexOf(TRACEBACK);
  const masked = maskText(at < 0 ? plain : `${plain.slice(0, at)} ${TRACEBACK_NOT_KEPT}`, secrets)
    .replace(SECRET_MEMBER, (_, name: string, separator = "", bare?: string, quoted?: string) => {
      const quote = /^["']/.exec(bare ?? quoted ?? "")?.[0] ?? "";
      return `${name}${separator}${quote}${MASK}${quote}`;
    })
    .replace(/\s+/g, " ")
    .trim();
  return masked ? oneLine(masked, max) : "(empty body)";
}

/** `secret` as an HTML page escapes it: `&quot;` and `&#x27;` (Django, Python), or `&#34;` and `&#39;` (Jinja). */
function htmlEscaped(secret: string): string[] {
  const amp = secret.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return [
    ["&quot;", "&#x27;"],
    ["&#34;", "&#39;"],
  ].map(([quot, apos]) => amp.replace(/"/g, quot!).replace(/'/g, apos!));
}
