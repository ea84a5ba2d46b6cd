import type { RequestListener } from "node:http";

export interface Listening {
  url: string;
  close(): Promise<void>;
}
export function listen(handler: RequestListener): Promise<Listening>;
export function startHangingServer(): Promise<Listening & { requests: number }>;
export function startFileServer(
  lookup: (path: string) => Promise<{ type: string; body: string | Uint8Array } | undefined>,
): Promise<Listening>;
