// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The API changelog in Markdown: **Breaking**, **Added**, **Changed**, **Docs only**, in that order, one line per
// change, each naming the client methods it touches. Lines with the same text for several methods are one line.

export const SECTIONS = [
  ["Breaking", (c) => c.level === "breaking"],
  ["Added", (c) => c.level === "non-breaking" && c.added],
  ["Changed", (c) => c.level === "non-breaking" && !c.added],
  ["Docs only", (c) => c.level === "docs"],
];

/** Who a change concerns: the client methods, else the operation (no client method calls it), else the document. */
function who(change) {
  if (change.methods.length) return change.methods.map((m) => `\`${m}\``).join(", ");
  if (change.operationId) return `\`${change.operationId}\` (no client method)`;
  return "the API document";
}

/** The changelog's lines, sections with no change left out; [] when nothing changed. */
export function changelogLines({ changes }) {
  const lines = [];
  for (const [title, belongs] of SECTIONS) {
    const byMessage = new Map();
    for (const change of changes.filter(belongs)) {
      const entry = byMessage.get(change.message) ?? new Set();
      entry.add(who(change));
      byMessage.set(change.message, entry);
    }
    if (byMessage.size === 0) continue;
    if (lines.length) lines.push("");
    lines.push(`**${title}**`, "");
    for (const [message, owners] of byMessage) lines.push(`- ${[...owners].join(", ")}: ${message}`);
  }
  return lines;
}

export function changelogMarkdown(result) {
  const lines = changelogLines(result);
  return lines.length ? `${lines.join("\n")}\n` : "No API changes.\n";
}
