export interface SmokeCheck {
  name: string;
  ok: boolean;
  /** Why it failed. */
  detail?: string;
}
export interface SmokeReport {
  /** Where the suite ran, as the runtime says: `node 22.23.3`, `bun 1.4.4`, `HeadlessChrome 143.0.7499.0`, ... */
  runtime: string;
  /** Whether the runtime had an `inspect` for the token check. */
  inspect: boolean;
  ok: boolean;
  checks: SmokeCheck[];
}
export interface SmokeConfig {
  baseUrl: string;
  hangUrl: string;
  token: string;
  timeoutMs?: number;
}
export function smoke(lib: Record<string, any>, config: SmokeConfig): Promise<SmokeReport>;
export function runtimeName(): string;
export const REPORT_MARK: string;
