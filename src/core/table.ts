// The types of the generated table (generated/operations.ts and the iterators and shortcuts of generated/groups.ts):
// what the runtime reads of each operation. A leaf: it imports nothing, so that generated code and every module of the
// runtime can name these types without depending on each other.

/** The keywords that bound a number, or the length of an array or a string. */
export type Limit =
  "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "minItems" | "maxItems" | "maxLength";

/**
 * The validation keywords of a schema in the spec (generated/operations.ts), and of the client's own options.
 * `patternMeans` says what `pattern` means, in words (the spec's `x-pattern-means`); `acceptsNumber`: the client also
 * takes a number here, and sends it as this string (`x-rainbond-accepts-number`); `closed`: no member but those of
 * `properties` (the client's own options only: the spec's records stay open); `consoleRule`: the console's rule this
 * value answers to, quoted in a refusal (the console overlay's `x-console-rule`); `if`/`then`: the rules of `then`
 * hold too where the value matches `if` (e.g. a member required with one `action`).
 */
export type SchemaRule = { readonly [K in Limit]?: number } & {
  readonly consoleRule?: string;
  readonly if?: SchemaRule;
  readonly then?: SchemaRule;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly patternMeans?: string;
  readonly acceptsNumber?: boolean;
  readonly required?: readonly string[];
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, SchemaRule>>;
  readonly closed?: boolean;
  readonly items?: SchemaRule;
};

/**
 * How one positional argument of an operation's function becomes part of the request: an object of ids (`scope`,
 * `{ teamId, regionName, ... }`) filling the path parameters named in `params`, one path parameter, the body (as the
 * spec names its fields), or an object of query parameters by the option names of `OperationSpec.options`.
 */
export type Arg =
  | { readonly kind: "scope"; readonly name: string; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "path"; readonly name: string; readonly param: string }
  | { readonly kind: "body" | "options"; readonly name: string };

type Rules = Readonly<Record<string, SchemaRule>>;

/** One operation of the spec as the client calls it: an entry of generated/operations.ts. */
export interface OperationSpec {
  /** The grouped client's name of it, `ports.list`: errors and logs name the call by it. */
  readonly name: string;
  readonly method: "GET" | "PUT" | "POST" | "DELETE" | "PATCH";
  readonly path: string;
  readonly args: readonly Arg[];
  readonly pathParams: Rules;
  readonly query?: Rules;
  /** Option name -> query parameter (`pageSize` -> `page_size`). */
  readonly options?: Readonly<Record<string, string>>;
  readonly requiredQuery?: readonly string[];
  /** Query parameters the client refuses, by parameter and option name, with why (the spec's `x-rainbond-refused`). */
  readonly refused?: Readonly<Record<string, string>>;
  readonly body?: SchemaRule;
  readonly bodyRequired?: boolean;
  /** Where the console may wrap the answer in its envelope: `data.list` or `data.bean`. */
  readonly envelope?: "list" | "bean";
  /** The top-level type the spec declares for a successful answer. */
  readonly response: "array" | "object" | "none";
  /**
   * The spec's `x-rainbond-idempotent: false`: the operation must never be replayed (a GET that changes the
   * console), whatever its method; it is sent again only when the connection was refused (src/core/retry.ts).
   */
  readonly idempotent?: false;
  /** The names of the secret fields (the spec's `x-sensitive`) of its request and its answer, where it has some. */
  readonly secrets?: readonly string[];
  /** Query parameters that form a time range, checked together (the spec's `x-rainbond-time-range`). */
  readonly timeRange?: {
    readonly start: string;
    readonly end: string;
    readonly step: string;
    readonly maxPointsPerSeries?: number;
  };
}

/** A request by the spec's names: path and query parameters, and the body. */
export interface OperationInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * A rule across query parameters, run on the encoded query before each parameter's own rules. Generated code passes
 * it to the operations that need it only, so that no other operation's bundle carries it.
 */
export type QueryRule = (
  spec: OperationSpec,
  query: Record<string, unknown>,
  given: Record<string, unknown>,
  nameOf: (param: string) => string,
) => void;

/**
 * A shortcut: a method of the grouped client that calls an operation with members of its body fixed, and perhaps one
 * or more taken from an argument (the spec's `x-rainbond-shortcuts`), e.g. `ports.openOuter(component, port)`.
 */
export interface Shortcut {
  /** The method's name, `ports.changeProtocol`. */
  readonly name: string;
  /** The body members it fixes. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The argument that gives the rest: one member (`member`), or an object of `members`. */
  readonly argument?: {
    readonly name: string;
    readonly member?: string;
    readonly members?: readonly string[];
    readonly required?: readonly string[];
  };
}

/**
 * An iterator (`name`: `regions.iterateForTeam`, the spec's `x-rainbond-paging`): the options that carry the page
 * number and size, the members of an answer that hold the page's items and the total, and those that identify an item
 * (the first present one counting).
 */
export interface Paging<K> {
  readonly name: string;
  readonly page: string;
  readonly pageSize: string;
  readonly items: K;
  readonly total: string;
  readonly id: readonly string[];
}
