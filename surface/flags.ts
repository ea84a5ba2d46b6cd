// The flags every command of the command line has, whatever its method: a spec parameter or body member that would
// take one of these names takes another (`--body-field`), worked out once by the generator (generated/table.json).
export const COMMON_FLAGS: readonly string[] = [
  "output",
  "query",
  "all",
  "yes",
  "dry-run",
  "profile",
  "base-url",
  "body",
  "timeout-ms",
  "retries",
  "log-level",
  "help",
  "token",
];

/** A name of the spec or the client as a flag: `page_size` and `pageSize` -> `page-size`. */
export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/_/g, "-");
