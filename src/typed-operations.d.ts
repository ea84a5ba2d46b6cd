// The generated table's types for operation() (src/internal/call.ts), which generated/functions.ts calls once per
// operation, given by declaration merging: the runtime below the entries imports nothing generated, and yet a table
// entry that disagrees with its function's declared type fails tsc. A declaration beside the entries, which tsc reads
// with src/ and no bundle or published declaration carries (the declaration bundler keeps a relative augmentation as
// it is, broken).
import type { OperationId, operations } from "../generated/operations.js";
import type { OperationData } from "./core.js";

type TableTypes = { [Id in OperationId]: { spec: (typeof operations)[Id]; data: OperationData<Id> } };

declare module "./internal/call.js" {
  interface TypedOperations extends TableTypes {}
}
