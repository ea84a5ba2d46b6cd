// The client's methods as data: which operation of the spec each one calls and what its arguments are.
// src/client.ts turns this table into methods; the spec (generated/operations.ts) says what each input must satisfy.
import type { OperationId } from "../generated/operations.js";
import { checkTimeRange } from "./monitor.js";

/** How one positional argument of a method becomes part of the request. */
export type ArgKind =
  /** A scope object (`{ teamId, regionName, appId?, serviceId? }`): fills the operation's remaining path params. */
  | { kind: "scope"; name: string }
  /** One path parameter, given by its camelCase name. */
  | { kind: "path"; name: string }
  /** An options object of query parameters, by their camelCase names. */
  | { kind: "query"; name: string }
  /** The request body, as the spec names its fields; `numericStrings` may be given as numbers. */
  | { kind: "body"; name: string; numericStrings?: readonly string[] };

export interface Endpoint {
  op: OperationId;
  args: readonly ArgKind[];
  /** The port operations may answer inside the console's envelope. */
  envelope?: "list" | "bean";
  /**
   * Rules across query parameters, run on the encoded query before each parameter's own rules; `given` holds the
   * values as the caller gave them, for messages.
   */
  check?: (query: Record<string, unknown>, operation: string, given: Record<string, unknown>) => void;
}

const scope = (name: string): ArgKind => ({ kind: "scope", name });
const path = (name: string): ArgKind => ({ kind: "path", name });
const options: ArgKind = { kind: "query", name: "options" };
const body: ArgKind = { kind: "body", name: "body" };

/** Every method of the client, by area. */
export const endpoints = {
  regions: {
    listForTeam: { op: "listTeamRegions", args: [path("teamId"), options] },
    get: { op: "getRegion", args: [path("regionId"), options] },
  },
  ports: {
    list: { op: "listComponentPorts", args: [scope("component")], envelope: "list" },
    add: {
      op: "addComponentPort",
      args: [scope("component"), { kind: "body", name: "body", numericStrings: ["port"] }],
      envelope: "bean",
    },
    update: { op: "updateComponentPort", args: [scope("component"), path("port"), body], envelope: "bean" },
    delete: { op: "deleteComponentPort", args: [scope("component"), path("port")], envelope: "bean" },
  },
  gateway: {
    listEnterpriseHttpRules: { op: "listEnterpriseHttpRules", args: [options] },
    updateHttpRule: { op: "updateHttpRule", args: [scope("app"), path("ruleId"), body] },
    createRule: { op: "createGatewayRule", args: [scope("app"), body] },
    createHttpRule: { op: "createHttpRule", args: [scope("app"), body] },
    listHttpRules: { op: "listAppHttpRules", args: [scope("app")] },
  },
  monitor: {
    query: { op: "queryComponentMonitor", args: [scope("app"), options] },
    queryRange: { op: "queryComponentMonitorRange", args: [scope("app"), options], check: checkTimeRange },
  },
  teams: {
    resources: { op: "listTeamResources", args: [{ kind: "body", name: "list" }] },
  },
  apps: {
    list: { op: "listApps", args: [scope("region"), options] },
    install: { op: "installApp", args: [scope("app"), body, options] },
  },
  components: {
    get: { op: "getComponent", args: [scope("component")] },
  },
} as const satisfies Record<string, Record<string, Endpoint>>;

/** The client's camelCase names of the spec's parameters. */
export const paramNames: Readonly<Record<string, string>> = {
  teamId: "team_id",
  regionName: "region_name",
  appId: "app_id",
  serviceId: "service_id",
  regionId: "region_id",
  port: "port",
  ruleId: "rule_id",
  query: "query",
  page: "page",
  pageSize: "page_size",
  extendInfo: "extend_info",
  autoSsl: "auto_ssl",
  isOuter: "is_outer",
  deploy: "is_deploy",
  start: "start",
  end: "end",
  step: "step",
};
