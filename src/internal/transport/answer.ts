// What an answer means: on a 2xx its data (or, for client.raw, the Response), otherwise the error of its status, its
// body masked.
import * as E from "../../core/errors.js";
import { excerpt, maskText, redact, secretsIn } from "../../core/redact.js";
import type { Transport } from "../config.js";
import { isRecord } from "../../core/is-record.js";
import { kindOf } from "../validate.js";
import { rebuilt } from "./body.js";
import type { Outgoing } from "./outgoing.js";
import { textOf } from "./sanitize.js";

/**
 * On a 2xx the JSON body, out of the console's envelope, of the top-level type the spec declares (client.raw's: the
 * Response, its body as read); otherwise the error of its status, whose body is the parsed JSON with secrets masked and
 * `error_trace` dropped, a short excerpt of a body that is not JSON, or null when the body is empty.
 */
export function answer(
  t: Transport,
  { spec: { envelope, response: shape }, info, body: sent, raw }: Outgoing,
  response: Response,
  text: string,
) {
  const { status, ok } = response;
  let data: unknown = text;
  let parsed = true;
  try {
    data = JSON.parse(text);
  } catch {
    parsed = false; // an excerpt of it
  }
  if (!ok) {
    const secrets = secretsIn(t.secrets, sent, data);
    const body = typeof data !== "string" ? redact(data, secrets) : data.trim() ? excerpt(data, secrets) : null;
    // the reason phrase and x-request-id are the server's text too: a console may echo the token in them
    const header = response.headers.get("x-request-id");
    const requestId = header === null ? undefined : textOf(header, secrets, 200);
    return E.apiError(info, status, body, requestId, maskText(response.statusText, secrets));
  }
  if (raw) return rebuilt(response, text);
  if (shape === "none") return undefined; // the spec declares no content: whatever came is not the caller's
  if (!parsed) throw new E.RainbondResponseError(info, status, excerpt(text, secretsIn(t.secrets, sent)));
  const inner = envelope && isRecord(data) ? data.data : undefined;
  if (envelope && isRecord(inner) && Object.hasOwn(inner, envelope)) data = inner[envelope];
  if (shape && kindOf(data) !== `an ${shape}`) {
    throw new E.RainbondResponseError(info, status, "", `${kindOf(data)} where the spec declares an ${shape}`);
  }
  return data;
}
