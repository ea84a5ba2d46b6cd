// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// What the per-call benchmark sends and answers: one component, the spec's own examples as the calls and the answers.
// The calls are generated/methods.json's (scripts/methods.ts): the client's `components.get` and `ports.add` with the
// spec's examples, and the same requests written out for the contenders without the client.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readMethods } from "../lib/methods.ts";
import { root } from "../lib/script.ts";

const spec = JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8"));
const methods = Object.fromEntries(readMethods().map((method) => [method.name, method]));
const templateOf = (method) => method.http.split(" ")[1];

/** The two methods the client contender calls (GET and POST), with the spec's examples. */
export const calls = { get: methods["components.get"], post: methods["ports.add"] };
export const token = "t";
/** The component both calls work on: the scope of the GET call's example. */
export const scope = calls.get.args.find((arg) => arg.kind === "scope").example;
/** The spec's templates, as openapi-fetch takes them. */
export const templates = { component: templateOf(calls.get), ports: templateOf(calls.post) };
const operation = (template, method) => spec.paths[template][method];
/** The concrete paths the server answers. */
const concrete = (template) =>
  template.replace(/\{(\w+)\}/g, (_, name) => scope[name.replace(/_([a-z])/g, (__, c) => c.toUpperCase())]);
export const paths = { get: concrete(templates.component), post: concrete(templates.ports) };
/** The answers: the component record (GET) and a Port (POST), from generated/openapi.json. */
export const bodies = {
  component: operation(templates.component, "get").responses["200"].content["application/json"].example,
  port: operation(templates.ports, "post").responses["200"].content["application/json"].example,
};
/** The POST body on the wire: the spec's request example (AddPortBody takes the port as a string). */
export const portRequest = operation(templates.ports, "post").requestBody.content["application/json"].example;
