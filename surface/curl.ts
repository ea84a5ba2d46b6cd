// A request as a curl command, for people to read and run: the command line's --dry-run and the reference's samples.
// The token is never in it: `"$RAINBOND_TOKEN"`, which the shell fills in; secret body members are masked.
import { redact } from "../src/core.js";

/** A request as the client made it (what a fetch that sends nothing was given). */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers | Record<string, string>;
  body?: string | null;
}

/** A shell word: single-quoted unless plain. */
export const shellQuote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** How a header's name is written: `Authorization`, `Content-Type`, others as the request has them. */
const CANONICAL: Record<string, string> = { authorization: "Authorization", "content-type": "Content-Type" };

/**
 * The curl command of `request`, on one line, or (`multiline`) one option a line as the reference shows it. `secrets`:
 * strings to mask wherever they appear in the body (the body's secret members are masked by name).
 */
export function curlOf(request: RecordedRequest, { secrets = [] as readonly string[], multiline = false } = {}) {
  const words = [`curl${request.method === "GET" ? "" : ` -X ${request.method}`} ${shellQuote(request.url)}`];
  for (const [name, value] of new Headers(request.headers)) {
    const shown = CANONICAL[name] ?? name;
    // double quotes, so that the shell fills the token in
    words.push(name === "authorization" ? `-H "${shown}: $RAINBOND_TOKEN"` : `-H ${shellQuote(`${shown}: ${value}`)}`);
  }
  if (request.body) words.push(`-d ${shellQuote(JSON.stringify(redact(JSON.parse(request.body), secrets)))}`);
  return words.join(multiline ? " \\\n  " : " ");
}
