// A request as a curl command, for people to read and run: the command line's --dry-run and the reference's samples.
// The token is never in it: `"$RAINBOND_TOKEN"`, which the shell fills in; the body is the JSON sent, its secret
// members masked and what a person would not see escaped, as a confirmation shows it (surface/request.ts).
import { shownRequest, type RecordedRequest } from "./request.js";

/** A shell word: single-quoted unless plain. */
export const shellQuote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** How a header's name is written: `Authorization`, `Content-Type`, others as the request has them. */
const CANONICAL: Record<string, string> = { authorization: "Authorization", "content-type": "Content-Type" };

/**
 * The curl command of `request`, on one line, or (`multiline`) one option a line as the reference shows it. `secrets`:
 * strings to mask wherever they appear in the body; the body's secret members are masked by name, unless `examples`
 * (the reference's samples, whose values are the spec's examples).
 */
export function curlOf(
  request: RecordedRequest,
  { secrets = [] as readonly string[], multiline = false, examples = false } = {},
) {
  // the URL always quoted: a query's `&` and `?` would be the shell's
  const url = `'${request.url.replace(/'/g, `'\\''`)}'`;
  const words = [`curl${request.method === "GET" ? "" : ` -X ${request.method}`} ${url}`];
  for (const [name, value] of new Headers(request.headers)) {
    const shown = CANONICAL[name] ?? name;
    // double quotes, so that the shell fills the token in
    words.push(name === "authorization" ? `-H "${shown}: $RAINBOND_TOKEN"` : `-H ${shellQuote(`${shown}: ${value}`)}`);
  }
  const body = request.body && (examples ? request.body : shownRequest(request, secrets).body);
  if (body) words.push(`-d ${shellQuote(body)}`);
  return words.join(multiline ? " \\\n  " : " ");
}
