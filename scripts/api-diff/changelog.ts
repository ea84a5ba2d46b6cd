// The changelog of a diff: **Breaking**, **Added**, **Changed**, **Docs only**, one line per message (message.ts
// says each), naming the client methods it touches.
import type { Change, DiffResult } from "./compare.ts";

const SECTIONS: [string, (c: Change) => boolean][] = [
  ["Breaking", (c) => c.level === "breaking"],
  ["Added", (c) => c.level === "non-breaking" && c.added],
  ["Changed", (c) => c.level === "non-breaking" && !c.added],
  ["Docs only", (c) => c.level === "docs"],
];

/** Who a change concerns: the client methods, else the operation (no client method calls it), else the document. */
function who(change: Change) {
  if (change.methods.length) return change.methods.map((m) => `\`${m}\``).join(", ");
  return change.operationId ? `\`${change.operationId}\` (no client method)` : "the API document";
}

/** The changelog, sections with no change left out. */
export function changelogMarkdown({ changes }: Pick<DiffResult, "changes">): string {
  const lines: string[] = [];
  for (const [title, belongs] of SECTIONS) {
    const byMessage = new Map<string, Set<string>>();
    for (const change of changes.filter(belongs)) {
      byMessage.set(change.message, (byMessage.get(change.message) ?? new Set()).add(who(change)));
    }
    if (byMessage.size === 0) continue;
    lines.push(...(lines.length ? [""] : []), `**${title}**`, "");
    for (const [message, owners] of byMessage) lines.push(`- ${[...owners].join(", ")}: ${message}`);
  }
  return lines.length ? `${lines.join("\n")}\n` : "No API changes.\n";
}
