// Console text in what the scripts write for people: a name the console chose (a field of its answers) is refused where
// no tool can carry it honestly, and quoted wherever Markdown shows it. verify's overlay actions (scripts/verify/
// overlay.ts) and the departures page (scripts/codegen/departures-page.ts) both go through here.

import { escapeUnsafe, isUnsafe } from "../../surface/escape.ts";

/** Names every JavaScript object has: a field so named reads as the object's own member in the tools that handle the
 *  spec (`__proto__` replaces an object's prototype; Redocly's example check reads `constructor` as a function). */
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));
/** `text` with what a reader could not see (surface/escape.ts: the one definition of it) written as an escape
 * (`\u202e`), `\n` for a line break. */
const escapeInvisible = (text: string) => escapeUnsafe(text, { keepLineFeeds: true }).replaceAll("\n", "\\n");

/** Why a name the console chose cannot be written into the spec or its docs; undefined when it can. */
export function whyOdd(name: string): string | undefined {
  if (name === "") return "it is empty";
  if (OBJECT_MEMBERS.has(name))
    return "every JavaScript object has a member of that name, which the spec's tools would read in its place";
  if (isUnsafe(name)) return "it holds characters a reader cannot see, or that turn the text around them";
  return undefined;
}

/** A name as a message shows it: in double quotes, what a reader could not see escaped. */
export const showName = (name: string) => escapeInvisible(JSON.stringify(name));

/**
 * `text` as a Markdown code span that nothing in it can end: fenced by one backtick more than its longest run of
 * backticks, with a space inside the fence where it begins or ends with a backtick or a space (CommonMark 6.1).
 * Whatever it holds (`</script>`, `*`, `[`) is shown as it is, never read as Markdown or HTML; line breaks and other
 * invisible characters are shown escaped, so that the span stays on its line and shows all it holds.
 */
export function codeSpan(text: string): string {
  const shown = escapeInvisible(text);
  const fence = "`".repeat(Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = /^[` ]|[` ]$/.test(shown) && shown.trim() !== "" ? " " : "";
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/**
 * Markdown that a tool wrote around console text (verify's descriptions of what it found): its code spans kept, each
 * fenced anew by codeSpan; everything else escaped, so that nothing outside a code span is read as Markdown or HTML.
 */
export function quotedMarkdown(text: string): string {
  const parts: string[] = [];
  let at = 0;
  const opening = /`+/g;
  for (let open = opening.exec(text); open; open = opening.exec(text)) {
    // a span ends at the next run of exactly as many backticks; without one, the backticks are text (CommonMark 6.1)
    const closing = new RegExp(`(?<!\`)${open[0]}(?!\`)`, "g");
    closing.lastIndex = opening.lastIndex;
    const close = closing.exec(text);
    if (!close) continue;
    const inner = text.slice(opening.lastIndex, close.index);
    parts.push(escapeMarkdown(text.slice(at, open.index)), codeSpan(/^ .* $/.test(inner) ? inner.slice(1, -1) : inner));
    at = opening.lastIndex = close.index + close[0].length;
  }
  return parts.join("") + escapeMarkdown(text.slice(at));
}

/** Plain text as Markdown: each character Markdown or HTML acts on escaped with a backslash, invisible ones shown. */
const escapeMarkdown = (text: string) => escapeInvisible(text).replace(/[\\`*_[\]<>&|~!#]/g, (c) => `\\${c}`);
