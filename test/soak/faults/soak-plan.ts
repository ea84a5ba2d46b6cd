// The soak's plan, shared by its server (chaos-server.ts, in the test's process) and its client side (soak-child.ts,
// in a Node process of its own): the sizes, the client's options, which call goes where, and a seeded draw that
// decides every random choice from (seed, what is decided), so a failing seed replays the same faults whatever order
// the requests arrive in.
import { createHash } from "node:crypto";

export const SOAK = {
  /** Calls per batch; the first batch warms up, the heap is compared between the later ones. */
  batchSize: 400,
  batches: 5,
  /** Calls in flight at once. */
  concurrency: 80,
  /** The client's options: each attempt has timeoutMs, idempotent calls are retried `retries` times. */
  timeoutMs: 300,
  retries: 2,
  retryDelay: { baseMs: 5, maxMs: 20, retryAfterCapMs: 1_000 },
  /** Share of the calls whose own signal the caller aborts, after up to abortWithinMs. */
  abortShare: 0.05,
  abortWithinMs: 400,
} as const;

/**
 * The longest a call may take: every attempt runs out its timeout and every wait is the longest backoff (the server's
 * `Retry-After` is 0). A call over it means a timer the client should have set did not bound it.
 */
export const callBudgetMs = (1 + SOAK.retries) * SOAK.timeoutMs + SOAK.retries * SOAK.retryDelay.maxMs;

export const TEAM = "q8k2mz5d";
const app = `/openapi/v1/teams/${TEAM}/regions/rainbond/apps/12`;

/** The call number `i` makes: a GET, a POST or a PUT, each on a path of its own, so the server counts per call. */
export function callOf(i: number): { method: "GET" | "POST" | "PUT"; id: string; path: string } {
  const method = (["GET", "POST", "PUT"] as const)[i % 3]!;
  const id = `c${i}`;
  const path =
    method === "GET"
      ? `/openapi/v1/regions/${id}`
      : method === "POST"
        ? `${app}/services/${id}/ports`
        : `${app}/services/${id}/ports/8080`;
  return { method, id, path };
}

/** A number in [0, 1) that depends only on the seed and the key (a slice of a SHA-256). */
export function draw(seed: number, key: string): number {
  return createHash("sha256").update(`${seed}:${key}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** Picks one of `weights`' keys, each as often as its weight says, by a draw in [0, 1). */
export function pick<K extends string>(weights: Record<K, number>, at: number): K {
  const entries = Object.entries(weights) as [K, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let left = at * total;
  for (const [key, weight] of entries) {
    if ((left -= weight) < 0) return key;
  }
  return entries[entries.length - 1]![0];
}
