// Type-check benchmark: only the generated types (generated/schema.ts), imported and named, nothing called.
// Compared with consumer.ts, it shows what checking the spec's types costs by itself.
import type { components, operations, paths } from "../../generated/schema.js";

export type GeneratedTypes = [paths, components, operations];
