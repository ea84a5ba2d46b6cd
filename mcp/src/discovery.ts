// How an agent reaches the operations a server serves without listing them all (docs/mcp.md, "What the tools cost an
// agent"): three tools of the server's own. findOperations finds operations by words and group (a line each: name,
// group, effect, summary); describeOperation gives one operation's tool (what it does, its arguments, its answer);
// callOperation calls one by name, through the very path of its own tool (server.ts): the same checks, the same
// read-only rule, the same confirmation by a person, the same result. Their answers are the table's text, never the
// console's.
import type { Tool } from "@modelcontextprotocol/server";
import { needsConfirmation, strongest } from "../../surface/effect.js";
import { GROUPS, discovers, entries, listedTools, readsOnly, servedOperations } from "./tools.js";
import type { Selection, ToolEntry } from "./tools.js";

export const FIND = "findOperations";
export const DESCRIBE = "describeOperation";
export const CALL = "callOperation";

/** How many operations findOperations names at most, by rank. */
export const MAX_FOUND = 15;

const operationName = {
  type: "string",
  description: "An operation's name, as findOperations gives it (its operationId: `deleteApp`).",
} as const;

/** The discovery tools, as a server that `allowWrite`s or not lists them. */
export function discoveryTools(allowWrite: boolean): Tool[] {
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  return [
    {
      name: CALL,
      title: "Call an operation by name",
      description:
        "Calls one operation that has no tool of its own in this list, exactly as its own tool would: its arguments " +
        "are checked, one that changes the console needs --allow-write, and one that exposes, interrupts, removes or " +
        "cannot be undone is first confirmed by the person at your client. The result is the operation's own.",
      inputSchema: {
        type: "object",
        properties: {
          operation: operationName,
          arguments: {
            type: "object",
            description:
              "Its arguments, as describeOperation gives them: path and query parameters by name, the body as `body`.",
          },
        },
        required: ["operation"],
        additionalProperties: false,
      },
      annotations: {
        title: "Call an operation by name",
        readOnlyHint: !allowWrite,
        destructiveHint: allowWrite,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    {
      name: DESCRIBE,
      title: "Describe an operation",
      description:
        "What one operation does and needs: its request, what it changes, its arguments (JSON Schema, as " +
        `${CALL} takes them) and its answer, each field explained.`,
      inputSchema: {
        type: "object",
        properties: { operation: operationName },
        required: ["operation"],
        additionalProperties: false,
      },
      annotations: { title: "Describe an operation", ...readOnly },
    },
    {
      name: FIND,
      title: "Find operations",
      description:
        "Finds the console's operations by words (`delete app`, `certificate`, `gray release`) and group: a line " +
        "each, with its name, group, effect and summary. With neither, every group and the names of its operations.",
      inputSchema: {
        type: "object",
        properties: {
          words: { type: "string", maxLength: 200, description: "Words of what you want to do or read." },
          group: { type: "string", enum: [...GROUPS] },
        },
        additionalProperties: false,
      },
      annotations: { title: "Find operations", ...readOnly },
    },
  ];
}

/** What a server lists on tools/list, sorted by name: its listed operations' tools, and the discovery tools when it
 * serves them, in which case the answers' schemas keep their shape and leave what each field means to
 * describeOperation. */
export function toolList(selection: Selection): Tool[] {
  const listed = listedTools(selection).map((entry) => entry.tool);
  if (!discovers(selection)) return listed;
  const shapes = listed.map((tool) =>
    tool.outputSchema ? { ...tool, outputSchema: shapeOf(tool.outputSchema) } : tool,
  );
  return [...shapes, ...discoveryTools(selection.allowWrite)].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Keywords of a schema whose values are maps of schemas by name (their keys are names, not keywords). */
const MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** A schema without its descriptions and titles: the shape of the data it describes, not what each field means. */
function shapeOf<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(shapeOf) as T;
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "description" || key === "title") continue;
    out[key] = MAPS.has(key)
      ? Object.fromEntries(Object.entries(value as object).map(([name, member]) => [name, shapeOf(member)]))
      : shapeOf(value);
  }
  return out as T;
}

const STOP = new Set(
  "a an the of to for in on at and or by with from my all its their this that is are be do can how what who i am me it".split(
    " ",
  ),
);

/** The words of a text, lower case, plural `s` dropped: `listComponentPorts` -> list, component, port. */
function wordsOf(text: string): string[] {
  const split = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return (split.match(/[a-z0-9]+/g) ?? [])
    .filter((word) => !STOP.has(word))
    .map((word) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word));
}

/** An operation's words, by weight: its name (3), its group and summary (2), its description and request line (1). */
const indexed = new Map(
  [...entries.values()].map(({ tool, operation }) => [
    tool.name,
    [
      [3, new Set(wordsOf(tool.name))],
      [2, new Set(wordsOf(`${operation.group} ${operation.summary}`))],
      [1, new Set(wordsOf(`${tool.description ?? ""} ${operation.http}`))],
    ] as [number, Set<string>][],
  ]),
);

/** How well an operation matches the words: how many it has, then how strongly (a word's prefix counts half). */
function rank(name: string, words: string[]): [matched: number, score: number] {
  let matched = 0;
  let score = 0;
  for (const word of words) {
    let best = 0;
    for (const [weight, set] of indexed.get(name)!) {
      if (set.has(word)) best = Math.max(best, weight);
      else if (word.length >= 4 && [...set].some((w) => w.startsWith(word))) best = Math.max(best, weight / 2);
    }
    if (best) matched++;
    score += best;
  }
  return [matched, score];
}

/** The operations of `among` that have the most of `words` (all of them, when some operation has), best first: by
 * score, then name; `among` when `words` is empty, none when it holds no word that says something. */
export function matching(words: string, among: readonly ToolEntry[]): ToolEntry[] {
  const wanted = [...new Set(wordsOf(words))];
  if (!wanted.length) return words.trim() ? [] : [...among];
  const ranked = among.map((entry) => ({ entry, rank: rank(entry.tool.name, wanted) }));
  const most = Math.max(0, ...ranked.map(({ rank: [matched] }) => matched)); // those with all the words, if any
  return ranked
    .filter(({ rank: [matched] }) => matched > 0 && matched === most)
    .sort((a, b) => b.rank[0] - a.rank[0] || b.rank[1] - a.rank[1] || (a.entry.tool.name < b.entry.tool.name ? -1 : 1))
    .map(({ entry }) => entry);
}

/** How an operation is called on this server, in a few words: not at all, by its own tool, confirmed by a person. */
function howCalled(entry: ToolEntry, selection: Selection, listed: ReadonlySet<ToolEntry>): string {
  if (!servedOperations(selection).includes(entry)) return "needs --allow-write";
  if (listed.has(entry)) return "a tool of its own";
  return needsConfirmation(strongest(entry.operation.effect)) ? "a person confirms" : "";
}

/** An operation as findOperations names it: name, group and effect, how it is called, then its summary. */
function lineOf(entry: ToolEntry, how: string): string {
  const effect = strongest(entry.operation.effect);
  const dependsOn = typeof entry.operation.effect === "string" ? "" : ` by ${entry.operation.effect.by}`;
  return `${entry.tool.name} [${[entry.operation.group, `${effect}${dependsOn}`, how].filter(Boolean).join(", ")}]: ${entry.operation.summary}`;
}

/** findOperations' answer: the operations that match, a line each; every group and its names when asked nothing. */
export function findOperations(args: { words?: unknown; group?: unknown }, selection: Selection): string {
  const all = [...entries.values()];
  const listed = new Set(listedTools(selection));
  const tail = `${DESCRIBE} gives one's arguments; ${CALL} calls it.`;
  const readOnly = selection.allowWrite ? "" : " This server is read-only: it runs the operations that only read.";
  if (args.words === undefined && args.group === undefined) {
    const groups = GROUPS.map((group) => {
      const names = (reads: boolean) =>
        all.filter((e) => e.operation.group === group && readsOnly(e) === reads).map((e) => e.tool.name);
      const changes = names(false);
      return `${group}: reads ${names(true).join(", ") || "none"}${changes.length ? `; changes ${changes.join(", ")}` : ""}`;
    });
    const head = `${all.length} operations in ${GROUPS.length} groups (${FIND} with a group gives a line on each).`;
    return [`${head}${readOnly}`, ...groups, tail].join("\n");
  }
  const inGroup = all.filter((entry) => args.group === undefined || entry.operation.group === args.group);
  const found = matching(typeof args.words === "string" ? args.words : "", inGroup);
  const asked = [
    ...(typeof args.words === "string" ? [`words ${JSON.stringify(args.words.slice(0, 100))}`] : []),
    ...(typeof args.group === "string" ? [`group ${args.group}`] : []),
  ].join(" and ");
  if (!found.length) {
    return `No operation matches ${asked}. ${FIND} with no arguments lists every group and its operations.`;
  }
  const shown = found.slice(0, MAX_FOUND);
  const more = found.length > shown.length ? ` (the first ${shown.length}: more words or a group narrow it)` : "";
  const count = found.length === 1 ? "1 operation matches" : `${found.length} operations match`;
  const head = `${count} ${asked}${more}.${readOnly}`;
  return [head, ...shown.map((entry) => lineOf(entry, howCalled(entry, selection, listed))), tail].join("\n");
}

/** describeOperation's answer: the operation's tool as its own listing would give it, and how to call it. */
export function describeOperation(entry: ToolEntry, selection: Selection): string {
  const { tool, operation } = entry;
  const effect = strongest(operation.effect);
  const how = !servedOperations(selection).includes(entry)
    ? `Not served: it changes the console (${effect}), and this server is read-only (started without --allow-write).`
    : `Call it ${listedTools(selection).includes(entry) ? "by its own tool or " : ""}with ${CALL}.` +
      (needsConfirmation(effect) ? " The person at your client confirms each call first." : "");
  const { name, title, description, inputSchema, outputSchema } = tool;
  const described = { name, title, request: operation.http, description, inputSchema, outputSchema };
  const answers = outputSchema ? "" : " It answers without content.";
  return `${name}: ${how}${answers}\n${JSON.stringify(described)}`;
}

/** The names closest to an unknown one: those that share most of its words. */
export function closest(name: string): string[] {
  return matching(name, [...entries.values()])
    .slice(0, 3)
    .map((entry) => entry.tool.name);
}
