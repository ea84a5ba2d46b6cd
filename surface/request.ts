// The request a call makes, as a person reads it before it is sent (the MCP server's confirmations; the command line's
// prompts may read it too). The client makes the request while a fetch that sends nothing records it, so that its own
// checks run, its encoding applies and its defaults are filled in: what is shown is what would go. Shown whole: the
// request line and the body's JSON as sent, the value of a secret member masked (and named), every character a person
// would not see as itself escaped (surface/escape.ts). Nothing is cut: a caller that cannot show it all refuses.
import { sensitiveFields } from "../generated/sensitive.js";
import { MASK, SENSITIVE, maskText, secretNames } from "../src/core/redact.js";
import { escapeUnsafe, isUnsafe } from "./escape.js";

// the spec's names of secret fields, given to the masking below the entries as they give them (src/core.ts)
secretNames(sensitiveFields);

/** A request as the client made it (what a fetch that sends nothing was given). */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers | Record<string, string>;
  body?: string | null;
}

/** A fetch that records the one request the client gives it, and sends nothing (it fails as a lost connection). */
export function recorder() {
  let recorded: RecordedRequest | undefined;
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    recorded = {
      method: request?.method ?? init.method ?? "GET",
      url: request?.url ?? String(input),
      headers: request?.headers ?? new Headers(init.headers),
      body: request ? await request.text() : (init.body as string | null | undefined),
    };
    throw new TypeError("recorded, not sent");
  };
  return { fetch, recorded: () => recorded };
}

/** A request as a person reads it. */
export interface ShownRequest {
  /** `PUT https://console.example.org/openapi/v1/...?a=b`: as sent, but masked and escaped. */
  line: string;
  /** The body's JSON as sent (members in the order sent), but masked and escaped; undefined when there is none. */
  body?: string;
  /** Where a value is masked: `body.market_access_key`, `body.port_alias` (it held a secret), `the request line`. */
  masked: string[];
  /** Whether some character is written as an escape. */
  escaped: boolean;
}

/** How `request` reads: `secrets` (the API token, say) and secret members' values masked, the rest as sent. */
export function shownRequest(request: RecordedRequest, secrets: readonly string[]): ShownRequest {
  const masked: string[] = [];
  const text = (value: string, at: string) => {
    const shown = maskText(value, secrets);
    if (shown !== value && !masked.includes(at)) masked.push(at);
    return shown;
  };
  const walk = (value: unknown, at: string): unknown => {
    if (typeof value === "string") return text(value, at);
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${at}[${i}]`));
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const path = `${at}.${key}`;
        if (SENSITIVE.has(key) && item != null) return [text(key, path), (masked.push(path), MASK)];
        return [text(key, path), walk(item, path)];
      }),
    );
  };
  const line = `${request.method} ${text(request.url, "the request line")}`;
  const body = request.body ? JSON.stringify(walk(JSON.parse(request.body), "body")) : undefined;
  const escaped = isUnsafe(line) || (body !== undefined && isUnsafe(body));
  return { line: escapeUnsafe(line), ...(body !== undefined && { body: escapeUnsafe(body) }), masked, escaped };
}

/** A JSON schema, as far as it says which members an object has. */
export interface MemberSchema {
  properties?: Record<string, MemberSchema>;
  additionalProperties?: boolean | MemberSchema;
  items?: MemberSchema;
  allOf?: MemberSchema[];
  anyOf?: MemberSchema[];
  oneOf?: MemberSchema[];
  then?: MemberSchema;
  else?: MemberSchema;
}

/** The members a schema names, its own and those of the schemas it joins (allOf, anyOf, oneOf, then, else). */
function membersOf(schema: MemberSchema, into = new Map<string, MemberSchema>()) {
  for (const [name, member] of Object.entries(schema.properties ?? {})) if (!into.has(name)) into.set(name, member);
  for (const joined of [schema.allOf, schema.anyOf, schema.oneOf, schema.then, schema.else].flat())
    if (joined) membersOf(joined, into);
  return into;
}

/** A member's path as a person reads it: `body.tcp.port`, or `body["a.b"]` for a name that is not a plain word. */
const pathOf = (at: string, name: string) =>
  /^[\w-]{1,100}$/.test(name) ? `${at}.${name}` : `${at}[${escapeUnsafe(JSON.stringify(name.slice(0, 100)))}]`;

/** A member that a schema does not name: where (`body.tcp.open_to`), and the members its object may have. */
export interface UnknownMember {
  at: string;
  object: string;
  known: string[];
}

/**
 * The members of `value` that `schema` does not name, at any depth: a request's body must hold only what the spec
 * says it takes. An object schema that names no member, or allows others (`additionalProperties`), takes any.
 */
export function unknownMembers(schema: MemberSchema, value: unknown, at: string): UnknownMember[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => unknownMembers(schema.items ?? {}, item, `${at}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  const known = membersOf(schema);
  const others = schema.additionalProperties ?? known.size === 0;
  return Object.entries(value).flatMap(([name, item]) => {
    const member = known.get(name) ?? (typeof others === "object" ? others : undefined);
    if (member) return unknownMembers(member, item, pathOf(at, name));
    return others ? [] : [{ at: pathOf(at, name), object: at, known: [...known.keys()] }];
  });
}
