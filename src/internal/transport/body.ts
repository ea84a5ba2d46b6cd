// The body cap: an answer's body is read within maxResponseBytes, counted as it arrives (after gzip or brotli are
// undone); past it, the read is cancelled. And what an attempt comes back with: the answer and its body, or a Lost.
import { RainbondError, RainbondResponseTooLargeError } from "../../core/errors.js";
import type { Transport } from "../config.js";
import type { Outgoing } from "./outgoing.js";

/** What fetch (or reading the body) failed with: the only source of a RainbondConnectionError. */
export class Lost {
  declare readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

/** What fetch (or reading the body) failed with, as a Lost; the client's own errors (a refused redirect) are thrown. */
export const lost = (error: unknown) => {
  if (error instanceof RainbondError) throw error;
  return new Lost(error);
};

/** An answer and its body, or why there is none. */
export type Exchanged = [Response, string] | Lost;

/** The answer with its body, read within maxResponseBytes (else a RainbondResponseTooLargeError), or a Lost. */
export async function read(t: Transport, req: Outgoing, response: Response, signal: AbortSignal): Promise<Exchanged> {
  try {
    return [response, await readBody(response, t.maxResponseBytes, signal)];
  } catch (error) {
    return lost(
      error === TOO_LARGE ? new RainbondResponseTooLargeError(req.info, response.status, t.maxResponseBytes) : error,
    );
  }
}

/** What readBody throws past the cap. */
export const TOO_LARGE = Symbol("too large");

/**
 * The body as text within `max` bytes, or TOO_LARGE: a declared length within it is read at once (HTTP framing bounds
 * it), an encoded or undeclared body counted as it comes; and over the cap all the same, a Response made by a custom
 * fetch being free to declare any length.
 */
export async function readBody(response: Response, max: number, signal: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  const text =
    declared <= max && !response.headers.has("content-encoding")
      ? await response.text()
      : await readCounted(response, declared, max, signal);
  if (text.length > max) throw TOO_LARGE;
  return text;
}

/** The body as text, counted as it arrives: past `max` bytes it is cancelled (TOO_LARGE). */
async function readCounted(res: Response, declared: number, max: number, signal: AbortSignal): Promise<string> {
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  for (let size = 0, text = ""; ;) {
    if (declared > max || size > max || signal.aborted) {
      void reader?.cancel().catch(() => {});
      throw signal.aborted ? signal.reason : TOO_LARGE;
    }
    const chunk = await reader?.read();
    if (!chunk?.value) return text + decoder.decode();
    size += chunk.value.byteLength;
    text += decoder.decode(chunk.value, { stream: true });
  }
}

/**
 * A Response of `text` (a body already read, and decoded) with the status, headers (as the console sent them) and URL
 * of `response`.
 */
export const rebuilt = (response: Response, text: string): Response =>
  Object.defineProperty(new Response(text || null, response), "url", { value: response.url });
