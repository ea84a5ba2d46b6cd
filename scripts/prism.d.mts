/** A running Prism mock of the spec. */
export interface PrismMock {
  url: string;
  /** The private copy of the spec Prism mocks (removed by stop). */
  spec: string;
  stop(): Promise<void>;
  output(): string;
}
/**
 * Starts Prism on a loopback port (`port`, or a free one when it is 0, the default): a mock of the spec, or with
 * `proxyTo` (an origin) a proxy that forwards to it and checks each answer against the spec (`sl-violations` header).
 */
export function startPrism(options?: {
  spec?: string;
  errors?: boolean;
  timeoutMs?: number;
  port?: number;
  proxyTo?: string;
}): Promise<PrismMock>;
