// What the verify sends, as data: the read-only operations in the order that lets each find the ids the next ones need,
// where each id can be found, the reversible port sequence of --write, and what is never sent.
import type { OperationId } from "../../generated/operations.js";
import type { AppScope, ComponentScope, RainbondClient, RegionScope } from "../../src/index.js";

/** The ids the operations need; each given on the command line or found through the API. */
export const ID_NAMES = ["team", "region", "regionId", "app", "component", "tenant"] as const;
export type IdName = (typeof ID_NAMES)[number];
const LABELS: Partial<Record<IdName, string>> = { regionId: "region id", tenant: "tenant id" };
export const label = (id: IdName) => LABELS[id] ?? id;
/** `regionId` for getRegion (which takes a name too), `tenant` for the team-resources query. */
export type Ids = { [K in IdName]?: K extends "app" ? number : string };
type Known = Required<Ids>;

const region = (i: Known): RegionScope => ({ teamId: i.team, regionName: i.region });
const app = (i: Known): AppScope => ({ ...region(i), appId: i.app });
const component = (i: Known): ComponentScope => ({ ...app(i), serviceId: i.component });

/** An operation, the ids it cannot be sent without, and its call through the client. */
type ReadStep = [OperationId, readonly IdName[], (client: RainbondClient, ids: Known) => Promise<unknown>];
const [TEAM_REGION, TENANT] = [["team", "region"] as const, ["tenant", "region"] as const];
const APP = [...TEAM_REGION, "app"] as const;
const COMPONENT = [...APP, "component"] as const;
const lastTenMinutes = () => ({ start: new Date(Date.now() - 600_000), end: new Date(), step: 60 });

/** Every GET of the interface, and the team-resources query (a POST that only reads). */
export const readSteps: readonly ReadStep[] = [
  ["listEnterpriseHttpRules", [], (c) => c.gateway.listEnterpriseHttpRules()],
  ["listTeamRegions", ["team"], (c, i) => c.regions.listForTeam(i.team)],
  ["getRegion", ["region"], (c, i) => c.regions.get(i.regionId ?? i.region, { extendInfo: true })],
  ["listApps", TEAM_REGION, (c, i) => c.apps.list(region(i))],
  ["listTeamResources", TENANT, (c, i) => c.teams.resources([{ tenant_id: i.tenant, region_name: i.region }])],
  ["listAppHttpRules", APP, (c, i) => c.gateway.listHttpRules(app(i))],
  ["queryComponentMonitor", APP, (c, i) => c.monitor.query(app(i))],
  ["queryComponentMonitorRange", APP, (c, i) => c.monitor.queryRange(app(i), lastTenMinutes())],
  ["getComponent", COMPONENT, (c, i) => c.components.get(component(i))],
  ["listComponentPorts", COMPONENT, (c, i) => c.ports.list(component(i))],
];

type Row = Record<string, unknown>;
const rows = (data: unknown): Row[] =>
  Array.isArray(data) ? data.filter((r): r is Row => typeof r === "object" && r !== null) : [];
/** The first non-empty string at `key` among the rows that `where` keeps. */
const first = (data: unknown, key: string, where = (_: Row) => true) =>
  rows(data).find((r) => where(r) && typeof r[key] === "string" && r[key] !== "")?.[key] as string | undefined;
const regions = (data: unknown) => (data as Row | undefined)?.regions;
const inApp = (i: Ids) => (r: Row) => r.team_name === i.team && r.region_name === i.region && r.app_id === i.app;

/** Where each id is found, given the ids known so far; tried in this order once the answer is in: the first wins. */
export const idSources: readonly [IdName, OperationId, (data: unknown, ids: Ids) => string | number | undefined][] = [
  ["team", "listEnterpriseHttpRules", (d) => first(d, "team_name")],
  ["region", "listTeamRegions", (d) => first(regions(d), "region_name")],
  ["regionId", "listTeamRegions", (d, i) => first(regions(d), "region_id", (r) => r.region_name === i.region)],
  ["app", "listApps", (d) => rows(d).find((r) => Number.isSafeInteger(r.ID) && (r.ID as number) >= 0)?.ID as number],
  ["tenant", "listApps", (d) => first(d, "tenant_id")],
  ["tenant", "listEnterpriseHttpRules", (d, i) => first(d, "tenant_id", (r) => r.team_name === i.team)],
  ["component", "queryComponentMonitor", (d) => first(d, "service_id")],
  ["component", "listAppHttpRules", (d) => first(d, "service_id")],
  ["component", "listEnterpriseHttpRules", (d, i) => first(d, "service_id", inApp(i))],
];

/** The port operations, sent only with --write, as one reversible sequence on the given component. */
export const WRITE_OPERATIONS = ["addComponentPort", "updateComponentPort", "deleteComponentPort"] as const;

/** Operations the API cannot undo (or that change live traffic): never sent, whatever the options. */
export const NEVER_SENT: readonly { operationId: OperationId; why: string }[] = [
  { operationId: "createGatewayRule", why: "creates a gateway rule, which the API cannot delete" },
  { operationId: "createHttpRule", why: "creates an HTTP rule, which the API cannot delete" },
  { operationId: "installApp", why: "installs an application, which the API cannot uninstall" },
  { operationId: "updateHttpRule", why: "changes a live gateway rule" },
];

/** The first port number from `port` up that none of `ports` uses: a loop over a set, whatever the console lists. */
export function freePort(ports: unknown, port = 20000): number {
  const used = new Set(rows(ports).map((p) => p.container_port));
  while (used.has(port)) port++;
  return port;
}

type Send = (operationId: OperationId, call: () => Promise<unknown>) => Promise<{ sent: boolean; status?: number }>;

/** The sequence of --write: add a free port, change its alias, delete it; the delete is sent even when a step fails. */
export async function portSequence(client: RainbondClient, ids: Known, port: number, send: Send): Promise<void> {
  const scope = component(ids);
  let added: { sent: boolean; status?: number } = { sent: false };
  try {
    // the console needs the port's k8s_service_name with its alias (spec/console.overlay.yaml): the one it was given
    let k8s_service_name = "";
    const add = () => client.ports.add(scope, { port, protocol: "tcp" }).then((p) => (({ k8s_service_name } = p), p));
    added = await send("addComponentPort", add);
    if (added.status !== undefined && added.status >= 200 && added.status < 300) {
      const alias = { port_alias: `VERIFY${port}`, k8s_service_name };
      await send("updateComponentPort", () => client.ports.changeAlias(scope, port, alias));
    }
  } finally {
    // A 4xx to the add means no port was made; anything else (added, a 5xx, no answer) may have made one.
    const refused = added.status !== undefined && added.status >= 400 && added.status < 500;
    if (added.sent && !refused) await send("deleteComponentPort", () => client.ports.delete(scope, port));
  }
}
