/** The marker lines the README's table of methods sits between. */
export const START: string;
export const END: string;
/** The table of the client's methods, as markdown (generated from src/ and the spec). */
export function methodsTable(): Promise<string>;
/** README.md's text with the table between the markers, formatted as prettier formats the file. */
export function readmeWithTable(readme: string): Promise<string>;
