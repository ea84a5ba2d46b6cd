// The secrets a run has seen (the token, and the values of the spec's secret fields in the console's answers), and
// whether a text holds one, as the client's own masking sees it: nothing the run shows or writes may.
import { sensitiveFields } from "../../generated/operations.js";
import { redact } from "../../src/core.ts";

const SENSITIVE = new Set<string>(sensitiveFields);

/** `secrets` and the values of the fields the spec marks `x-sensitive` in `value` (a region's token, say). */
export function secretsSeen(secrets: readonly string[], value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [...secrets];
  const secret = (key: string, item: unknown) => typeof item === "string" && item !== "" && SENSITIVE.has(key);
  return Object.entries(value).reduce<string[]>(
    (found, [key, item]) => (secret(key, item) ? [...found, item as string] : secretsSeen(found, item)),
    [...secrets],
  );
}

/** Whether `text` is, or holds, one of `secrets` (or a private key), as the masking sees it. */
export const holdsSecret = (text: string, secrets: readonly string[]) => redact(text, secrets) !== text;
