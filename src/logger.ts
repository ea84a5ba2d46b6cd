// The client's logging: off by default except warnings (retries). Lines never hold the token or a secret field:
// the transport masks `Authorization` and passes bodies through redact() before they reach a logger.

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

const ORDER: readonly (keyof Logger)[] = ["error", "warn", "info", "debug"];

export function createLog(logger: Logger = console, level: LogLevel = "warn"): Log {
  const log: Log = {};
  const enabled = level === "off" ? 0 : ORDER.indexOf(level) + 1;
  ORDER.slice(0, enabled).forEach((name) => {
    log[name] = (message, ...data) => logger[name](`[rainbond] ${message}`, ...data);
  });
  return log;
}
