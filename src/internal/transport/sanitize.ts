// What fetch threw, made safe to show and to keep as an error's `cause`: masked, cut and on one line.
import { maskText, oneLine } from "../../core/redact.js";

/** A thrown value's text, masked, cut and on one line, whatever was thrown (even an object whose toString throws). */
export function textOf(thrown: unknown, secrets: readonly string[], max?: number): string {
  let text = "an unprintable value";
  try {
    text = thrown instanceof Error ? thrown.message : String(thrown);
  } catch {
    // kept as said
  }
  return oneLine(maskText(text, secrets), max);
}

/**
 * What fetch threw, safe to keep as a `cause`: a new Error with its name, text and `code` masked and cut, and its own
 * cause likewise (3 levels), so that util.inspect(err) shows no token a custom fetch put in its errors.
 */
export function sanitized(thrown: unknown, secrets: readonly string[], depth = 0): Error {
  const copy = new Error(textOf(thrown, secrets)) as Error & Record<string, unknown>;
  const from = (typeof thrown === "object" && thrown ? thrown : {}) as Record<string, unknown>;
  for (const key of ["name", "code"]) if (typeof from[key] === "string") copy[key] = textOf(from[key], secrets, 60);
  if (from.cause !== undefined && depth < 2) copy.cause = sanitized(from.cause, secrets, depth + 1);
  return copy;
}
