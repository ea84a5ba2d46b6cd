// What the MCP server's tools/list costs an agent: the JSON of its answer (characters, and tokens at about four
// characters each), read-only and with --allow-write, as the server makes it from generated/table.json. `npm test`
// holds each to its ceiling (test/mcp/tools.test.ts measures the answer a client receives).
import { servedTools, type Selection } from "../../mcp/src/tools.ts";

/** Regression ceilings, in characters of JSON: a little above today's figures. */
export const TOOLS_LIST_CEILING = { "read-only": 29_000, "--allow-write": 62_000 };
/** A rough estimate of the tokens of JSON text: characters per token. */
export const CHARS_PER_TOKEN = 4;

const SELECTIONS: Record<keyof typeof TOOLS_LIST_CEILING, Selection> = {
  "read-only": { allowWrite: false },
  "--allow-write": { allowWrite: true },
};

/** tools/list's answer for each selection: tools, characters, about how many tokens, and the ceiling. */
export function toolsListSize() {
  return Object.entries(SELECTIONS).map(([name, selection]) => {
    const tools = servedTools(selection).map((entry) => entry.tool);
    const chars = JSON.stringify({ tools }).length;
    const ceiling = TOOLS_LIST_CEILING[name as keyof typeof TOOLS_LIST_CEILING];
    return { name, tools: tools.length, chars, tokens: Math.round(chars / CHARS_PER_TOKEN), ceiling };
  });
}
