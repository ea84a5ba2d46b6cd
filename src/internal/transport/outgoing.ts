// A request as the transport sends it: an operation's, checked and encoded (internal/prepare.ts). Types only.
import type { RequestInfo } from "../../core/errors.js";
import type { Replayable } from "../../core/retry.js";
import type { OperationSpec } from "../../core/table.js";

export interface Outgoing {
  /**
   * The operation's entry of the table: its method and path template (which middleware sees as `schemaPath`), the
   * answer's envelope and type, whether it may be replayed.
   */
  readonly spec: Replayable & Pick<OperationSpec, "path" | "envelope" | "response">;
  /** What messages and logs name it by: the operation, the method and the path as sent. */
  readonly info: RequestInfo;
  /** The path and query parameters, encoded. */
  readonly params: { readonly path: Record<string, unknown>; readonly query: Record<string, unknown> };
  /** The body as sent (for the debug log, and the values of its secret fields, masked wherever they are echoed). */
  readonly body: unknown;
  /** The body's JSON, as sent. */
  readonly json?: string | undefined;
}
