// What the command line and the MCP server take from the client below its entries (src/index.ts, src/core.ts), in one
// place: the one test of a plain object, the masking and escaping of console text the client's own messages use, and
// checking a value against a rule of the table. Everything else they take from the entries or from surface/.
export { isRecord } from "../src/core/is-record.js";
export { MASK, escapeControl, maskText, oneLine, secretsIn } from "../src/core/redact.js";
export type { OperationInput, SchemaRule } from "../src/core/table.js";
export { check } from "../src/internal/validate.js";
// the retry policy, whose defaults and words the help texts are made of
export { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, RETRIED_STATUSES, retryPolicy } from "../src/core/retry.js";
