// Text a person reads, made to show what it holds. Some characters are acted on rather than shown (C0, DEL and C1
// controls), change how the text around them reads (bidi controls: `a\u202Emoc.live\u202C.x` reads as "aevil.com.x"),
// or do not show at all (zero-width and the other default-ignorable characters, tag characters, the line and
// paragraph separators, lone surrogates). Wherever such text must be read exactly (a question a person confirms),
// each of them is written as an escape (`\u202e`), which JSON reads back as the same character.

/** Every character that a person does not see as itself: controls, format, separators, default-ignorable, lone halves. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;

const hex = (code: number) => code.toString(16).padStart(4, "0");

/** Whether `text` holds a character a person would not see as itself. */
export const isUnsafe = (text: string) => text.search(UNSAFE) >= 0;

/** `text` with each such character written as `\uXXXX` (UTF-16, as JSON spells an astral one): in JSON text, the
 * same data (JSON.stringify escapes C0 controls and lone surrogates itself, not the rest). */
export const escapeUnsafe = (text: string) =>
  text.replace(UNSAFE, (c) => [...Array(c.length).keys()].map((i) => `\\u${hex(c.charCodeAt(i))}`).join(""));
