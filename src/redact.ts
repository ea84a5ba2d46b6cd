// Keeps secrets out of everything this client shows: logs, error messages, error bodies.
// What is secret comes from the spec (`x-sensitive`: key_file, market_access_key, token) plus the client's own token.
import { sensitiveFields } from "../generated/operations.js";

/** What stands in for a secret. */
export const MASK = "[redacted]";
/** Names of secret fields: those the spec marks `x-sensitive`, in requests and in records (generated/operations.ts). */
export const SENSITIVE: ReadonlySet<string> = new Set(sensitiveFields);
/** Members of an error body that are dropped outright: a server stack trace is no one's business. */
const DROPPED = new Set(["error_trace"]);
/** A PEM private key (a region's key_file, say), even cut short. */
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;
/** `"<secret field>": "<value>"` in a text that is not valid JSON (the value may be cut short). */
const SECRET_MEMBER = new RegExp(`("(?:${[...SENSITIVE].join("|")})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"?`, "g");

/** A deep copy of `value` with secret fields masked, `error_trace` dropped and each secret string replaced. */
export function redact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return maskText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (DROPPED.has(key)) continue;
    out[key] = SENSITIVE.has(key) && item != null ? MASK : redact(item, secrets);
  }
  return out;
}

/**
 * `secrets` plus the string values of the secret fields found in each of `values` (a request body that carries a
 * `market_access_key`, an error body that carries a `key_file`), so that a server echoing one back in a message does
 * not put it in an error. Returns `secrets` itself when there is nothing to add.
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

/** Replaces every occurrence of each secret in `text`, and any PEM private key. */
export function maskText(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) if (secret && text.includes(secret)) text = text.split(secret).join(MASK);
  return text.includes("PRIVATE KEY-----") ? text.replace(PRIVATE_KEY, MASK) : text;
}

/** A short, safe, one-line excerpt of a body that is not JSON (an HTML error page, say): tags and secrets removed. */
export function excerpt(text: string, secrets: readonly string[], max = 160): string {
  const plain = maskText(text, secrets)
    .replace(SECRET_MEMBER, `$1"${MASK}"`)
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > max ? `${plain.slice(0, max)}…` : plain || "(empty body)";
}
