// Text a person reads, made to show what it holds. Some characters are acted on rather than shown (C0, DEL and C1
// controls), change how the text around them reads (bidi controls: `a\u202Emoc.live\u202C.x` reads as "aevil.com.x"),
// or do not show at all (zero-width and the other default-ignorable characters, tag characters, the line and
// paragraph separators, lone surrogates). Wherever such text must be read exactly (a question a person confirms, a
// terminal's output), each of them is written as an escape (`\u202e`), which JSON reads back as the same character.
// The one definition of those characters: the MCP server's confirmations, the command line's output and the Markdown
// the scripts write around console text (scripts/lib/console-text.ts) all use it.

/** What is hidden or acted on beyond the controls (Cc): format, separators, default-ignorable, lone halves. */
const HIDDEN = String.raw`\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}`;

/** Every character that a person does not see as itself. Global: for `replace` and `search`, never `test`. */
export const UNSAFE = new RegExp(String.raw`[\p{Cc}${HIDDEN}]`, "gu");

/** The same but the line feed (Cc is \0-\x1f and \x7f-\x9f), which JSON and YAML text write between members and
 * escape within strings, and which a stack trace keeps. Global, as UNSAFE. */
export const UNSAFE_BUT_LF = new RegExp(String.raw`[\0-\x09\x0b-\x1f\x7f-\x9f${HIDDEN}]`, "gu");

const hex = (code: number) => code.toString(16).padStart(4, "0");

/** Whether `text` holds a character a person would not see as itself. */
export const isUnsafe = (text: string) => text.search(UNSAFE) >= 0;

/** One character as `\uXXXX`, each UTF-16 half of an astral one apart, as JSON spells it. */
const utf16 = (c: string) => [...Array(c.length).keys()].map((i) => `\\u${hex(c.charCodeAt(i))}`).join("");

/**
 * `text` with each such character written as `\uXXXX`: in JSON text, the same data (JSON.stringify escapes C0 controls
 * and lone surrogates itself, not the rest). `keepLineFeeds` for JSON text of several lines, whose line feeds stand
 * between members.
 */
export const escapeUnsafe = (text: string, { keepLineFeeds = false } = {}) =>
  text.replace(keepLineFeeds ? UNSAFE_BUT_LF : UNSAFE, utf16);
