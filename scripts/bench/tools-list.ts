// What the MCP server costs an agent, as the server makes it from generated/table.json: the JSON of its tools/list
// answer (characters, and tokens at about four characters each), which an agent reads on every turn, for the ways a
// person starts it; and what reaching one operation outside the listed ones costs, once, through the discovery tools:
// findOperations (with the words of its summary), describeOperation, and callOperation's arguments over its own
// tool's. `npm test` holds the listings to their ceilings (test/mock/mcp/tools.test.ts measures the answer a client gets).
import { CALL, DESCRIBE, FIND, describeOperation, findOperations, toolList } from "../../mcp/src/discovery.ts";
import { entries, listedTools, servedOperations, type Selection } from "../../mcp/src/tools.ts";

/** Regression ceilings, in characters of JSON: the default listing's is issue 38's; the others a little above today. */
export const TOOLS_LIST_CEILING = {
  "read-only": 24_000,
  "--allow-write": 24_000,
  "--tools all": 106_000,
  "--tools all --allow-write": 262_000,
};
/** Regression ceilings of what reaching one operation outside the default listing costs an agent, once (reachCost):
 * characters at the median operation and at the costliest. */
export const REACH_CEILING = { median: 3_500, largest: 10_000 };
/** A rough estimate of the tokens of JSON text: characters per token. */
export const CHARS_PER_TOKEN = 4;

type Listing = keyof typeof TOOLS_LIST_CEILING;
const SELECTIONS: Record<Listing, Selection> = {
  "read-only": { allowWrite: false },
  "--allow-write": { allowWrite: true },
  "--tools all": { allowWrite: false, tools: ["all"] },
  "--tools all --allow-write": { allowWrite: true, tools: ["all"] },
};

/** tools/list's answer for each way of starting the server: tools, operations reached, characters, about how many
 * tokens, and the ceiling. */
export function toolsListSize() {
  return Object.entries(SELECTIONS).map(([name, selection]) => {
    const tools = toolList(selection);
    const chars = JSON.stringify({ tools }).length;
    const ceiling = TOOLS_LIST_CEILING[name as Listing];
    const operations = servedOperations(selection).length;
    return { name, tools: tools.length, operations, chars, tokens: Math.round(chars / CHARS_PER_TOKEN), ceiling };
  });
}

/** The characters of one round trip: the call an agent writes (tool and arguments, as JSON) and the text it reads. */
const roundTrip = (tool: string, args: object, answer: string) =>
  JSON.stringify({ name: tool, arguments: args }).length + answer.length;

/**
 * What reaching each operation outside the listed ones costs an agent, once (server started with --allow-write, so
 * that every operation is reached): finding it by the words of its summary (and whether it comes among the lines
 * shown), describing it, and the arguments callOperation adds to its own tool's. The operation's answer is not
 * counted: its own tool's would be the same.
 */
export function reachCost(selection: Selection = { allowWrite: true }) {
  const listed = new Set(listedTools(selection));
  return servedOperations(selection)
    .filter((entry) => !listed.has(entry))
    .map(({ tool, operation }) => {
      const words = operation.summary;
      const found = findOperations({ words }, selection);
      const described = describeOperation(entries.get(tool.name)!, selection);
      const args = {}; // the same arguments as its own tool's: only the wrapping counts
      const call =
        JSON.stringify({ name: CALL, arguments: { operation: tool.name, arguments: args } }).length -
        JSON.stringify({ name: tool.name, arguments: args }).length;
      const find = roundTrip(FIND, { words }, found);
      const describe = roundTrip(DESCRIBE, { operation: tool.name }, described);
      const shown = found.split("\n").some((line) => line.startsWith(`${tool.name} [`));
      return { operation: tool.name, find, describe, call, total: find + describe + call, shown };
    });
}

/** The median, the 90th percentile and the largest of reachCost's totals, and each part at the median's operation. */
export function reachSummary(costs = reachCost()) {
  const sorted = [...costs].sort((a, b) => a.total - b.total);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    operations: costs.length,
    foundBySummary: costs.filter((c) => c.shown).length,
    median: at(0.5),
    p90: at(0.9),
    largest: sorted.at(-1)!,
  };
}
