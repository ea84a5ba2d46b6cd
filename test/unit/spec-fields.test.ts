// An independent field-by-field check of the transcription (spec/ bundled without the console overlay, which says
// where the console departs from the source) against the interface's source document
// (spec/source/rainbond-openapi-v1.md): every record of section 2 (and the body tables of section 4) must stand
// in the spec's component schemas with the exact field names, types, nullability ("or null"), requiredness,
// readOnly ("read-only") and allowed values; and no schema may have a field the source does not name.
// The source is read at run time (test/helpers/source-doc.ts); nothing here copies a field list from the spec.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  readSourceDocument,
  type Endpoint,
  type SourceField,
  type SourceRecord,
  type SourceType,
} from "../helpers/source-doc.js";
import { bundleSpec, deref as derefIn } from "../../scripts/lib/spec.ts";
import { operationsOf, refName, type LocatedOperation, type SpecDocument, type SpecSchema } from "../helpers/spec.js";

const sourceDir = new URL("../../spec/source/", import.meta.url);
const md = readFileSync(new URL("rainbond-openapi-v1.md", sourceDir), "utf8");
const liveDoc = readFileSync(new URL("live-console-behaviour.md", sourceDir), "utf8");
const doc = readSourceDocument(md);
const spec = (await bundleSpec(undefined, { overlay: false })) as unknown as SpecDocument;
const deref = <T>(node: T): T => derefIn(spec, node);
const specOperations = operationsOf(spec);
const schemas = spec.components.schemas;

// ---- which schema of the spec stands for each record of the source ----------------------------------------------

/** Record name -> schema name. A record named like a schema is that schema; the request bodies of section 4 are the
 *  bodies of their operations; the others (`configuration`, `tcp`, `TCP rule record`) are found through the
 *  `$ref` of the field that holds them in an already bound record. */
const binding = new Map<string, string>();
const bindingProblems: string[] = [];
for (const record of doc.records) {
  if (schemas[record.name]) binding.set(record.name, record.name);
  const op = /^Operation (\d+) body$/.exec(record.name);
  if (op) {
    const endpoint = doc.endpoints.find((e) => e.number === Number(op[1]));
    const operation = specOperations.find((o) => o.method === endpoint?.method && o.path === endpoint?.path);
    const name = refName(operation?.operation.requestBody?.content["application/json"]?.schema);
    if (name) binding.set(record.name, name);
    else
      bindingProblems.push(
        `${record.name}: no operation ${endpoint?.method} ${endpoint?.path} with a body schema in the spec`,
      );
  }
}
const recordByName = new Map(doc.records.map((r) => [r.name, r]));
for (let changed = true; changed;) {
  changed = false;
  for (const record of doc.records) {
    const schemaName = binding.get(record.name);
    if (!schemaName) continue;
    const schema = deref(schemas[schemaName]!);
    for (const field of record.fields) {
      let type: SourceType = field.type;
      let prop: SpecSchema | undefined = schema.properties?.[field.name];
      while (type.kind === "array" && prop) {
        type = type.items;
        prop = deref(prop).items;
      }
      if (type.kind === "record" && !binding.has(type.name) && refName(prop)) {
        binding.set(type.name, refName(prop)!);
        changed = true;
      }
    }
  }
}

// ---- comparing a record with its schema -------------------------------------------------------------------------

/** The schema names a comparison went through: what of the spec the source accounts for. */
const covered = new Set<string>();

const typesOf = (schema: SpecSchema): string[] =>
  schema.type === undefined ? [] : ([] as string[]).concat(schema.type);
const show = (t: SourceType): string => {
  const base =
    t.kind === "scalar"
      ? `${t.type}${t.format ? `, ${t.format}` : ""}`
      : t.kind === "array"
        ? `array of ${show(t.items)}`
        : t.kind === "record"
          ? t.name
          : `{ ${t.fields.map((f) => `${f.name} ${show(f.type)}`).join(", ")} }`;
  return t.nullable ? `${base} or null` : base;
};

/** Differences between a source type and the schema of a spec property, as readable lines. */
function compareType(at: string, type: SourceType, property: SpecSchema): string[] {
  const issues: string[] = [];
  const name = refName(property);
  if (name) covered.add(name);
  const schema = deref(property);
  const types = typesOf(schema);
  const wanted = [type.kind === "scalar" ? type.type : type.kind === "array" ? "array" : "object"];
  if (type.nullable) wanted.push("null");
  const differ = (what: string) => issues.push(`${at}: the source says ${show(type)}; the spec has ${what}`);

  if (type.kind === "record") {
    // a named record: the spec must point at the schema bound to it, which is compared on its own
    const bound = binding.get(type.name);
    if (!name) differ(`no $ref (${JSON.stringify(types)})`);
    else if (bound !== name) differ(`$ref ${name} (the record ${type.name} stands for ${bound ?? "no schema"})`);
    if (type.nullable !== types.includes("null") && !(type.nullable === false && types.length === 0)) {
      differ(`type ${JSON.stringify(schema.type)}`);
    }
    return issues;
  }
  if (types.slice().sort().join() !== wanted.slice().sort().join()) differ(`type ${JSON.stringify(schema.type)}`);
  if (type.kind === "scalar" && (type.format ?? undefined) !== schema.format)
    differ(`format ${JSON.stringify(schema.format)}`);
  if (type.kind === "array") {
    if (!schema.items) differ("no items");
    else issues.push(...compareType(`${at}[]`, type.items, schema.items));
  }
  if (type.kind === "object") issues.push(...compareFields(at, type.fields, schema));
  return issues;
}

/** Field names, types, requiredness, readOnly and allowed values of `fields` against an object schema. */
function compareFields(at: string, fields: SourceField[], schema: SpecSchema): string[] {
  const issues: string[] = [];
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const named = new Set(fields.map((f) => f.name));
  for (const extra of Object.keys(properties).filter((p) => !named.has(p))) {
    const since = sinceIssue(`${at}.${extra}`, properties[extra]!);
    if (since === undefined)
      coverRefs(properties[extra]!); // a field the console gained: its schemas are accounted for
    else issues.push(since || `${at}.${extra}: in the spec, but the source names no such field`);
  }
  for (const name of required) {
    if (!named.has(name) && !(properties[name] && sinceIssue(name, properties[name]!) === undefined)) {
      issues.push(`${at}: the spec requires ${name}, which the source does not name`);
    }
  }
  for (const field of fields) {
    const where = `${at}.${field.name}`;
    const property = properties[field.name];
    if (!property) {
      issues.push(`${where}: in the source (${show(field.type)}), missing from the spec`);
      continue;
    }
    if (markOf(property) !== undefined) issues.push(`${where}: marked x-since, but the source names it`);
    issues.push(...compareType(where, field.type, property));
    if (field.required !== undefined && field.required !== required.has(field.name)) {
      issues.push(
        `${where}: the source says ${field.required ? "required" : "not required"}; the spec ${required.has(field.name) ? "requires it" : "does not require it"}`,
      );
    }
    if (field.readOnly !== (property.readOnly === true || deref(property).readOnly === true)) {
      issues.push(
        `${where}: the source says ${field.readOnly ? "read-only" : "not read-only"}; the spec has readOnly ${JSON.stringify(property.readOnly)}`,
      );
    }
    const specEnum = deref(property).enum ?? property.enum;
    const values = field.values;
    if (values?.closed) {
      const same =
        specEnum !== undefined &&
        JSON.stringify([...specEnum].map(String).sort()) === JSON.stringify(values.values.map(String).sort());
      const sameTypes =
        specEnum !== undefined &&
        specEnum.every((v, i) => typeof v === typeof values.values.find((w) => String(w) === String(specEnum[i])));
      if (!same || !sameTypes) {
        issues.push(
          `${where}: the source allows ${JSON.stringify(values.values)}; the spec's enum is ${JSON.stringify(specEnum)}`,
        );
      }
    } else if (specEnum !== undefined) {
      const named = values
        ? `only names ${JSON.stringify(values.values)} (not a closed list)`
        : "lists no allowed values";
      issues.push(`${where}: the source ${named}; the spec restricts it to the enum ${JSON.stringify(specEnum)}`);
    }
  }
  return issues;
}

// ---- additions the source does not name: `x-since` (spec/README.md, "Growing past the source") -------------------

/** What a field, parameter or operation the source does not name must carry: `x-since: "<console version>"`. */
const SINCE = /^v?\d+(\.\d+){0,2}$/;
const markOf = (node: { [key: string]: unknown }): unknown =>
  node["x-since"] ?? (typeof node.$ref === "string" ? deref(node as SpecSchema)["x-since"] : undefined);

/** undefined when `node` is marked with a valid x-since; "" when it is not marked; a message when the mark is bad. */
function sinceIssue(at: string, node: { [key: string]: unknown }): string | undefined {
  const mark = markOf(node);
  if (mark === undefined) return "";
  if (typeof mark === "string" && SINCE.test(mark)) return undefined;
  return `${at}: x-since must be a console version such as "6.1.0" (it is ${JSON.stringify(mark)})`;
}

/** Counts the schemas a marked addition points at as accounted for. */
function coverRefs(node: unknown): void {
  if (Array.isArray(node)) node.forEach(coverRefs);
  else if (node && typeof node === "object") {
    const name = refName(node as SpecSchema);
    if (name && !covered.has(name)) {
      covered.add(name);
      coverRefs(schemas[name]);
    }
    Object.values(node).forEach(coverRefs);
  }
}

/** Operations of the spec that are no endpoint of the source (by method and path), unless marked x-since. */
function unknownOperations(operations: LocatedOperation[], endpoints: Endpoint[]): string[] {
  return operations.flatMap(({ method, path, operationId, operation }) => {
    if (endpoints.some((e) => e.method === method && e.path === path)) return [];
    const issue = sinceIssue(`${operationId} (${method} ${path})`, operation as unknown as Record<string, unknown>);
    return issue === undefined ? [] : [issue || `${operationId} (${method} ${path}): not an endpoint of the source`];
  });
}

interface Parameter {
  name: string;
  in: string;
  [key: string]: unknown;
}
/** An operation's parameters, its path's and its own, `$ref`s to components.parameters resolved. */
function parametersOf({ method, path }: LocatedOperation): Parameter[] {
  const item = spec.paths[path] as unknown as { parameters?: Parameter[] } & Record<
    string,
    { parameters?: Parameter[] }
  >;
  const components = (spec.components as { parameters?: Record<string, Parameter> }).parameters ?? {};
  const resolve = (p: Parameter): Parameter =>
    typeof p.$ref === "string" ? resolve(components[p.$ref.split("/").pop()!]!) : p;
  return [...(item.parameters ?? []), ...(item[method.toLowerCase()]?.parameters ?? [])].map(resolve);
}

/** Parameters of the spec's operations the source does not name for that operation, unless marked x-since. */
function unknownParameters(operations: (LocatedOperation & { parameters: Parameter[] })[], endpoints: Endpoint[]) {
  return operations.flatMap(({ method, path, operationId, parameters }) => {
    const endpoint = endpoints.find((e) => e.method === method && e.path === path);
    if (!endpoint) return []; // an operation of its own: unknownOperations speaks for it
    return parameters
      .filter((p) => !endpoint.names.includes(p.name))
      .flatMap((p) => {
        const issue = sinceIssue(`${operationId}: ${p.in} parameter ${p.name}`, p);
        return issue === undefined
          ? []
          : [issue || `${operationId}: ${p.in} parameter ${p.name}, which the source does not name`];
      });
  });
}

function compareRecord(record: SourceRecord): string[] {
  const schemaName = binding.get(record.name);
  if (!schemaName) return [`${record.name} (section ${record.section}): no schema of the spec stands for it`];
  covered.add(schemaName);
  const schema = deref(schemas[schemaName]!);
  const issues: string[] = [];
  if (typesOf(schema).join() !== "object")
    issues.push(`${schemaName}: the source describes an object; the spec has type ${JSON.stringify(schema.type)}`);
  const label = schemaName === record.name ? record.name : `${record.name} (${schemaName})`;
  return [...issues, ...compareFields(label, record.fields, schema)];
}

// ---- the tests -----------------------------------------------------------------------------------------------------

describe("reading the source document", () => {
  test("finds every record of section 2 and the bodies of operations 4 and 5", () => {
    const names = doc.records.map((r) => r.name);
    // the records the source defines with a table or a list (section 2), and the two body tables of section 4
    expect(names).toEqual(
      expect.arrayContaining([
        "TeamRegionsResp",
        "ListTeamRegionsResp",
        "RegionInfoR",
        "Port",
        "EnterpriseHTTPGatewayRule",
        "HTTPGatewayRule",
        "UpdatePostHTTPGatewayRule",
        "Http",
        "configuration",
        "PostGatewayRule",
        "tcp",
        "GatewayRule",
        "TCP rule record",
        "ComponentMonitorSerializers",
        "ComponentMonitorItemsSerializers",
        "Data",
        "MonitorDataSerializers",
        "TenantRegionList",
        "TeamAppsResource",
        "AppBaseInfo",
        "Install",
        "MarketInstall",
        "ServiceBaseInfo",
        "Operation 4 body",
        "Operation 5 body",
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
    // each row of an attribute table of section 2 became a field
    const section2 = md.slice(md.indexOf("\n## 2. "), md.indexOf("\n## 3. "));
    const fieldRows = section2
      .split("\n")
      .filter((l) => /^\|\s*`?[A-Za-z_]\w*`?\s*\|/.test(l) && !/^\|\s*Field\s*\|/.test(l));
    const fromTables = doc.records.filter((r) => r.origin === "table" && r.section.startsWith("2."));
    expect(fromTables.flatMap((r) => r.fields.map((f) => f.name))).toEqual(
      fieldRows.map((l) => l.split("|")[1]!.trim().replace(/`/g, "")),
    );
    expect(fromTables.length).toBeGreaterThanOrEqual(10);
    expect(doc.statusCodes).toEqual(["0", "1", "2", "3"]);
    expect(doc.endpoints).toHaveLength(17);
  });

  test("every record is bound to a schema of the spec", () => {
    expect(bindingProblems).toEqual([]);
    expect(doc.records.filter((r) => !binding.has(r.name)).map((r) => r.name)).toEqual([]);
  });
});

describe("each record of the source stands in the spec's component schemas", () => {
  test.each(doc.records.map((r) => ({ name: r.name, section: r.section, record: r })))(
    "$name (section $section): names, types, nullability, requiredness, readOnly, allowed values",
    ({ record }) => {
      expect(compareRecord(record)).toEqual([]);
    },
  );
});

describe("the spec has nothing the source does not account for", () => {
  test("every component schema is a record of the source, a schema one of them points at, or the error body", () => {
    for (const record of doc.records) compareRecord(record); // fills `covered`, in case the tests above were filtered
    const unaccounted = Object.keys(schemas).filter((name) => !covered.has(name) && name !== "ConsoleError");
    expect(unaccounted).toEqual([]);
  });

  test("the error body (ConsoleError) names only members the live console's document shows", () => {
    // the interface's source shows no error body (section 7: "not shown"); live-console-behaviour.md does
    const members = Object.keys(schemas.ConsoleError?.properties ?? {});
    expect(members.length).toBeGreaterThan(0);
    const unknown = members.filter((m) => !new RegExp(`["\`]${m}["\`]`).test(liveDoc));
    expect(unknown).toEqual([]);
  });

  test("the enum of a port's protocol (PortProtocol) is the source's list", () => {
    const port = doc.records.find((r) => r.name === "Port")!.fields.find((f) => f.name === "protocol")!;
    expect(port.values?.closed).toBe(true);
    expect(schemas.PortProtocol?.enum).toEqual(port.values?.values);
  });
});

describe("the spec may grow past its source: additions marked x-since (spec/README.md)", () => {
  const withParameters = specOperations.map((o) => ({ ...o, parameters: parametersOf(o) }));
  const portRecord = doc.records.find((r) => r.name === "Port")!;
  const port = deref(schemas.Port!);
  const withField = (field: SpecSchema): SpecSchema => ({
    ...port,
    properties: { ...port.properties, is_public: field },
  });

  test("every operation of the spec is an endpoint of the source, or marked x-since", () => {
    expect(unknownOperations(specOperations, doc.endpoints)).toEqual([]);
  });

  test("every parameter of an operation is named by the source for that operation, or marked x-since", () => {
    // the parameters are read whole: each placeholder of a path is a path parameter of its operations
    for (const o of withParameters) {
      const placeholders = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(o.parameters.filter((p) => p.in === "path").map((p) => p.name)).toEqual(placeholders);
    }
    expect(unknownParameters(withParameters, doc.endpoints)).toEqual([]);
  });

  test("a field the source does not name: refused unmarked, allowed with x-since, refused with a bad mark", () => {
    expect(compareFields("Port", portRecord.fields, port)).toEqual([]);
    expect(compareFields("Port", portRecord.fields, withField({ type: "boolean" }))).toEqual([
      "Port.is_public: in the spec, but the source names no such field",
    ]);
    expect(compareFields("Port", portRecord.fields, withField({ type: "boolean", "x-since": "6.1.0" }))).toEqual([]);
    expect(
      compareFields("Port", portRecord.fields, {
        ...withField({ type: "boolean", "x-since": "6.1" }),
        required: [...(port.required ?? []), "is_public"],
      }),
    ).toEqual([]);
    expect(compareFields("Port", portRecord.fields, withField({ type: "boolean", "x-since": "soon" }))).toEqual([
      'Port.is_public: x-since must be a console version such as "6.1.0" (it is "soon")',
    ]);
  });

  test("the source's own fields are still checked exactly, marked or not", () => {
    const { k8s_service_name: _dropped, ...rest } = port.properties!;
    expect(compareFields("Port", portRecord.fields, { ...port, properties: rest })).toContain(
      "Port.k8s_service_name: in the source (string), missing from the spec",
    );
    const marked = { ...port.properties, port_alias: { ...port.properties!.port_alias, "x-since": "6.1.0" } };
    expect(compareFields("Port", portRecord.fields, { ...port, properties: marked })).toEqual([
      "Port.port_alias: marked x-since, but the source names it",
    ]);
    const retyped = { ...port.properties, port_alias: { type: "integer", "x-since": "6.1.0" } };
    expect(compareFields("Port", portRecord.fields, { ...port, properties: retyped })).toContain(
      'Port.port_alias: the source says string; the spec has type "integer"',
    );
  });

  test("an operation the source does not name: refused unmarked, allowed with x-since", () => {
    const ping = (extra: Record<string, unknown>): LocatedOperation => ({
      operationId: "ping",
      method: "GET",
      path: "/openapi/v1/ping",
      operation: { operationId: "ping", responses: {}, ...extra },
    });
    expect(unknownOperations([ping({})], doc.endpoints)).toEqual([
      "ping (GET /openapi/v1/ping): not an endpoint of the source",
    ]);
    expect(unknownOperations([ping({ "x-since": "6.1.0" })], doc.endpoints)).toEqual([]);
  });

  test("a parameter the source does not name: refused unmarked, allowed with x-since", () => {
    const range = withParameters.find((o) => o.operationId === "queryComponentMonitorRange")!;
    const adding = (parameter: Parameter) => [{ ...range, parameters: [...range.parameters, parameter] }];
    expect(unknownParameters(adding({ name: "step_unit", in: "query" }), doc.endpoints)).toEqual([
      "queryComponentMonitorRange: query parameter step_unit, which the source does not name",
    ]);
    expect(unknownParameters(adding({ name: "step_unit", in: "query", "x-since": "6.1.0" }), doc.endpoints)).toEqual(
      [],
    );
  });
});
