/** A running Prism mock of the spec. */
export interface PrismMock {
  url: string;
  /** The private copy of the spec Prism mocks (removed by stop). */
  spec: string;
  stop(): Promise<void>;
  output(): string;
}
/** Mocks the spec (default generated/openapi.json) on 127.0.0.1: on `port`, or a free port when it is 0 (the default). */
export function startPrism(options?: {
  spec?: string;
  errors?: boolean;
  timeoutMs?: number;
  port?: number;
}): Promise<PrismMock>;
