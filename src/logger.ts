// The client's logging: warnings (retries) by default. A failure is thrown, not logged as well, so `error` logs as
// little as `off`. The transport masks what it logs: no line holds the token or a secret field.

/** How much the client logs: each level adds to the quieter ones (see ClientOptions.logLevel). */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";
/** Every level, from quietest to most verbose. */
export const LOG_LEVELS: readonly LogLevel[] = ["off", "error", "warn", "info", "debug"];

/** Where log lines go; `console` fits. */
export interface Logger {
  error(message: string, ...data: unknown[]): void;
  warn(message: string, ...data: unknown[]): void;
  info(message: string, ...data: unknown[]): void;
  debug(message: string, ...data: unknown[]): void;
}

type LogFn = (message: string, ...data: unknown[]) => void;
/** The enabled levels only: a disabled level is undefined, so a call site pays nothing for it (`log.debug?.(...)`). */
export type Log = { [level in keyof Logger]?: LogFn };

export function createLog(logger: Logger = console, level: LogLevel = "warn"): Log {
  const log: Log = {};
  // the levels up to `level`, quietest first ("off" enables none)
  for (const name of LOG_LEVELS.slice(1, LOG_LEVELS.indexOf(level) + 1) as (keyof Logger)[]) {
    log[name] = (message, ...data) => logger[name](`[rainbond] ${message}`, ...data);
  }
  return log;
}
