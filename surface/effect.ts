// What a call does: the one reading of the spec's `x-rainbond-effect` mark (docs/editing-the-spec.md) that every surface
// shares. The command line's prompts, the MCP server's annotations and confirmations, verify's choice of what it never
// sends and the docs all ask this module, never the mark itself.

/** What a call does, from the mildest to the strongest. */
export const EFFECTS = ["read", "write", "exposes", "interrupts", "irreversible", "destructive"] as const;
export type Effect = (typeof EFFECTS)[number];

/** An effect that depends on the value of one body member (`action`): the effect of each value, else `otherwise`. */
export interface EffectRule {
  by: string;
  values: Readonly<Record<string, Effect>>;
  otherwise: Effect;
}

/** What each effect means, said once: for help texts, tool descriptions and the docs. */
export const MEANING: Readonly<Record<Effect, string>> = {
  read: "Reads only: changes nothing.",
  write: "Changes the console; another call can undo it.",
  exposes: "Opens it to the outside network; another call can close it again.",
  interrupts: "Cuts off access or stops what runs, until another call restores it.",
  irreversible: "Adds what the API cannot remove: it cannot be undone through the API.",
  destructive: "Removes or overwrites it for good: it cannot be undone.",
};

/** What a person is told before a confirmed call: the effect, in the words of a question's second sentence. */
export const WARNING: Readonly<Record<Effect, string>> = {
  read: "It changes nothing.",
  write: "It changes the console.",
  exposes: "It opens this to the outside network (another call can close it again).",
  interrupts: "It cuts off access or stops what runs until it is restored.",
  irreversible: "It adds what the API cannot remove: it cannot be undone through the API.",
  destructive: "It removes or overwrites this for good: it cannot be undone.",
};

const rank = (effect: Effect) => EFFECTS.indexOf(effect);
/** The stronger of two effects. */
export const stronger = (a: Effect, b: Effect): Effect => (rank(a) >= rank(b) ? a : b);

/** Whether a person must confirm a call of this effect before anything is sent. */
export const needsConfirmation = (effect: Effect): boolean => rank(effect) >= rank("exposes");
/** Every effect a call of this mark may have. */
export const possible = (mark: Effect | EffectRule): Effect[] =>
  typeof mark === "string" ? [mark] : [...new Set([...Object.values(mark.values), mark.otherwise])];

/** The strongest effect a call of this mark may have: what a person must expect before the arguments are known. */
export const strongest = (mark: Effect | EffectRule): Effect => possible(mark).reduce(stronger);

/** Whether a call of this mark may remove or cut off something, rather than only add or change (MCP's
 * destructiveHint): an irreversible call adds what cannot be removed, which is not destructive in MCP's sense. */
export const mayDestroy = (mark: Effect | EffectRule): boolean =>
  possible(mark).some((effect) => effect === "interrupts" || effect === "destructive");

/** The effect of a call whose body is `body`: the rule's value for the member it reads, or `otherwise`. */
export function effectOf(mark: Effect | EffectRule, body: unknown): Effect {
  if (typeof mark === "string") return mark;
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[mark.by] : undefined;
  const key = typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : "";
  return Object.hasOwn(mark.values, key) ? mark.values[key]! : mark.otherwise;
}

/** What a call of this mark does, in one paragraph: the effect, or the effect of each value of the member it reads. */
export function describeEffect(mark: Effect | EffectRule): string {
  if (typeof mark === "string") return MEANING[mark];
  const byEffect = new Map<Effect, string[]>();
  for (const [value, effect] of Object.entries(mark.values))
    byEffect.set(effect, [...(byEffect.get(effect) ?? []), value]);
  const cases = [...byEffect].map(
    ([effect, values]) => `${values.map((v) => `\`${v}\``).join(", ")}: ${MEANING[effect]}`,
  );
  return `Depends on \`${mark.by}\`. ${cases.join(" ")} Any other: ${MEANING[mark.otherwise]}`;
}
