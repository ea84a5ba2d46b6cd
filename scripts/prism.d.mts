/** A running Prism mock of the spec. */
export interface PrismMock {
  url: string;
  /** The private copy of the spec Prism mocks (removed by stop). */
  spec: string;
  stop(): Promise<void>;
  output(): string;
}
export function startPrism(options?: { spec?: string; errors?: boolean; timeoutMs?: number }): Promise<PrismMock>;
