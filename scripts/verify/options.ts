// What a run of `npm run verify` is given: the console, the token, the ids, and what to write where (main.ts parses
// them from the command line).
export type VerifyOptions = Record<"baseUrl" | "token", string> &
  Record<"write" | "json", boolean> &
  Partial<Record<"team" | "region" | "component" | "report" | "overlay", string> & { app: number }> & {
    /** Other ids, by the spec's names (`--id user_id=2`). */
    ids?: Record<string, string>;
  };
