/** A running Prism mock of the spec. */
export interface PrismMock {
  url: string;
  stop(): Promise<void>;
  output(): string;
}
export function startPrism(options?: { spec?: string; errors?: boolean; timeoutMs?: number }): Promise<PrismMock>;
