import type { ClientMethod } from "./methods.mjs";

/** The spec and the methods a table is made of (default: generated/openapi.json and generated/methods.json). */
export interface TableSources {
  spec?: object;
  methods?: ClientMethod[];
}
/** The marker lines the README's table of methods sits between. */
export const START: string;
export const END: string;
/** The table of the client's methods, as markdown (made from generated/methods.json and the spec). */
export function methodsTable(sources?: TableSources): string;
/** README.md's text with the table between the markers, formatted as prettier formats the file. */
export function readmeWithTable(readme: string, sources?: TableSources): Promise<string>;
