// Console text made safe for a terminal. A console chooses keys and values, and on plain http (Rainbond's usual :7070)
// anyone on the network path does too; a terminal acts on some characters and hides others. So every character that a
// terminal acts on or does not show reaches it escaped: C0, DEL and C1 controls (ESC starts OSC 52 clipboard writes,
// window titles, screen clears and hyperlinks; U+009B is a one-byte CSI), bidi controls (`a\u202Emoc.live\u202C.x`
// reads as "aevil.com.x"), zero-width and the other default-ignorable characters, the line and paragraph separators,
// and lone surrogates (surface/escape.ts says which, for every surface). Text shows them as `\x1b`, `\u202e`; JSON and
// YAML as their own escapes of the same data.
import { format } from "node:util";
import truncatedWidth from "fast-string-truncated-width";
import { UNSAFE, UNSAFE_BUT_LF, escapeUnsafe } from "../../surface/escape.js";

export { isUnsafe } from "../../surface/escape.js";

const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const hex = (code: number, digits: number) => code.toString(16).padStart(digits, "0");

/** One character as text shows it: `\n`, `\x1b`, `\u202e`, `\u{e0001}`. */
function escapeOne(c: string): string {
  const code = c.codePointAt(0)!;
  if (SHORT[c]) return SHORT[c];
  if (code < 0x100) return `\\x${hex(code, 2)}`;
  return code > 0xffff ? `\\u{${hex(code, 5)}}` : `\\u${hex(code, 4)}`;
}

/** Text for one line of a terminal: every unsafe character escaped, line breaks too. */
export const escapeText = (text: string) => text.replace(UNSAFE, escapeOne);

/** Text of several lines (a stack trace, a log line that inspects an object): the line breaks kept, the rest escaped. */
export const escapeLines = (text: string) => text.replace(UNSAFE_BUT_LF, escapeOne);

/** JSON text with every unsafe character in its strings as `\uXXXX` (UTF-16, as JSON spells astral ones): same data. */
export const escapeJson = (json: string) => escapeUnsafe(json, { keepLineFeeds: true });

/** YAML text whose unsafe characters all stand in double-quoted scalars: each as `\uXXXX` or `\UXXXXXXXX`. */
export const escapeYamlQuoted = (yaml: string) =>
  yaml.replace(UNSAFE_BUT_LF, (c) => {
    const code = c.codePointAt(0)!;
    return code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
  });

/** The columns `text` takes on a terminal (East Asian wide characters take two). */
export function widthOf(text: string): number {
  return /^[\x20-\x7e]*$/.test(text) ? text.length : truncatedWidth(text).width;
}

/** `text` cut to `width` columns, `…` ending what was cut. */
export function cut(text: string, width: number): string {
  if (text.length <= width && /^[\x20-\x7e]*$/.test(text)) return text;
  const { index, ellipsed, truncated } = truncatedWidth(text, { limit: Math.max(width, 0), ellipsis: "…" });
  return truncated ? `${text.slice(0, index)}${ellipsed ? "…" : ""}` : text;
}

/** The client's logger writing to `stream`, each line escaped as console text (its lines quote the console). */
export function loggerOn(stream: { write(text: string): unknown }) {
  const write = (...args: unknown[]) => void stream.write(`${escapeLines(format(...args))}\n`);
  return { error: write, warn: write, info: write, debug: write };
}
