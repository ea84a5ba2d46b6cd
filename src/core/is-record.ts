/** A plain object's members: not null, an array or a Date (a parsed answer's body, a call's arguments). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
