// What a run gathers of each operation, and what --write made: the report (report.ts) is built from them.
import type { Judgement, Outcome } from "./judge.ts";
import type * as plan from "./plan.ts";

/** What happened to one operation (one line: a shortcut, or a list read again, is a line of its own), before masking. */
export type OperationResult = Omit<Judgement, "outcome"> &
  Record<"operationId" | "method" | "path", string> & {
    outcome: Outcome | "not tried" | "not sent" | "never sent";
    /** The call where it is not the operation's own method: a shortcut (`ports.changeAlias`), a list read again. */
    call?: string;
    /** The read-only part of the run (when left out), --write's sequences, or neither (never sent). */
    phase?: "read" | "write" | "never";
    /** For an operation the spec marks a console defect: whether the defect showed. */
    defect?: "shown" | "not shown";
  };

/** What a create of --write made (its new ids), whether it was (undefined: not known), and whether it is gone. */
export type Written = { operationId: string; made: plan.Ids; created: boolean | undefined; removed?: boolean };
