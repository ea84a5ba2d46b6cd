// A request as the transport sends it: an operation's, checked and encoded (internal/prepare.ts), or one that
// client.raw's openapi-fetch built (raw.ts). Types only.
import type { RequestInfo } from "../../core/errors.js";
import type { Replayable } from "../../core/retry.js";
import type { OperationSpec } from "../../core/table.js";

export interface Outgoing {
  /**
   * The operation's entry of the table: its method and path template (which middleware sees as `schemaPath`), the
   * answer's envelope and type, whether it may be replayed. client.raw's request has its method and path only.
   */
  readonly spec: Replayable & Pick<OperationSpec, "path"> & Partial<Pick<OperationSpec, "envelope" | "response">>;
  /** What messages and logs name it by: the operation, the method and the path as sent. */
  readonly info: RequestInfo;
  /** The path and query parameters, encoded. */
  readonly params: { readonly path: Record<string, unknown>; readonly query: Record<string, unknown> };
  /** The body as sent (for the debug log, and the values of its secret fields, masked wherever they are echoed). */
  readonly body: unknown;
  /** The body on the wire: its JSON, or the bytes of client.raw's. */
  readonly json?: string | ArrayBuffer | undefined;
  /** client.raw's: the URL and headers openapi-fetch built; answers come back as Responses, not as data. */
  readonly raw?: { readonly url: string; readonly headers: Headers } | undefined;
}
