// What the per-call benchmark sends and answers: one component, the spec's own examples as the answers.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const spec = JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8"));
const example = (path, method) => spec.paths[path][method].responses["200"].content["application/json"].example;

export const token = "t";
export const scope = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };
/** The spec's templates, as openapi-fetch takes them. */
export const templates = {
  component: "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}",
  ports: "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports",
};
const concrete = `/openapi/v1/teams/${scope.teamId}/regions/${scope.regionName}/apps/${scope.appId}/services/${scope.serviceId}`;
/** The concrete paths the server answers. */
export const paths = { get: concrete, post: `${concrete}/ports` };
/** The answers: the component record (GET) and a Port (POST), from generated/openapi.json. */
export const bodies = {
  component: example(templates.component, "get"),
  port: example(templates.ports, "post"),
};
/** The POST body on the wire (the spec's AddPortBody takes the port as a string). */
export const portRequest = { port: "8080", protocol: "http" };
