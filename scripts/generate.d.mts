/** Whether the spec at `specRoot` bundles to another document than `outDir`/openapi.json holds (or there is none). */
export function specDiffersFromGenerated(specRoot: string, outDir: string): Promise<boolean>;
