// What the verify sends, as data: the read-only operations in the order that lets each find the ids the next ones need,
// where each id can be found, the reversible port sequence of --write, and what is never sent.
import type { OperationId } from "../../generated/operations.js";
import type { AppScope, ComponentScope, RainbondClient, RegionScope } from "../../src/index.js";

/** The ids the operations need; each given on the command line or found through the API. */
export interface Ids {
  team?: string;
  region?: string;
  /** The region's id, for getRegion (which takes a name too). */
  regionId?: string;
  app?: number;
  component?: string;
  /** The team's tenant id, for the team-resources query. */
  tenant?: string;
}
export type IdName = keyof Ids;

export const ID_LABELS: Record<IdName, string> = {
  team: "team",
  region: "region",
  regionId: "region id",
  app: "app",
  component: "component",
  tenant: "tenant id",
};

type Known = Required<Ids>;
const region = (i: Known): RegionScope => ({ teamId: i.team, regionName: i.region });
const app = (i: Known): AppScope => ({ ...region(i), appId: i.app });
const component = (i: Known): ComponentScope => ({ ...app(i), serviceId: i.component });

export interface ReadStep {
  operationId: OperationId;
  /** The ids it cannot be sent without. */
  needs: readonly IdName[];
  call(client: RainbondClient, ids: Known, now: number): Promise<unknown>;
}

/** Every GET of the interface, and the team-resources query (a POST that only reads). */
export const readSteps: readonly ReadStep[] = [
  { operationId: "listEnterpriseHttpRules", needs: [], call: (c) => c.gateway.listEnterpriseHttpRules() },
  { operationId: "listTeamRegions", needs: ["team"], call: (c, i) => c.regions.listForTeam(i.team) },
  {
    operationId: "getRegion",
    needs: ["region"],
    call: (c, i) => c.regions.get(i.regionId ?? i.region, { extendInfo: true }),
  },
  { operationId: "listApps", needs: ["team", "region"], call: (c, i) => c.apps.list(region(i)) },
  {
    operationId: "listTeamResources",
    needs: ["tenant", "region"],
    call: (c, i) => c.teams.resources([{ tenant_id: i.tenant, region_name: i.region }]),
  },
  {
    operationId: "listAppHttpRules",
    needs: ["team", "region", "app"],
    call: (c, i) => c.gateway.listHttpRules(app(i)),
  },
  { operationId: "queryComponentMonitor", needs: ["team", "region", "app"], call: (c, i) => c.monitor.query(app(i)) },
  {
    operationId: "queryComponentMonitorRange",
    needs: ["team", "region", "app"],
    call: (c, i, now) => c.monitor.queryRange(app(i), { start: now - 600, end: now, step: 60 }),
  },
  {
    operationId: "getComponent",
    needs: ["team", "region", "app", "component"],
    call: (c, i) => c.components.get(component(i)),
  },
  {
    operationId: "listComponentPorts",
    needs: ["team", "region", "app", "component"],
    call: (c, i) => c.ports.list(component(i)),
  },
];

// ---- where ids are found ---------------------------------------------------------------------------------------------

type Row = Record<string, unknown>;
const rows = (data: unknown): Row[] =>
  Array.isArray(data) ? data.filter((r): r is Row => typeof r === "object" && r !== null) : [];
const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);

export interface IdSource {
  id: IdName;
  from: OperationId;
  /** The id in that operation's answer (the client's data), given the ids known so far. */
  pick(data: unknown, ids: Ids): string | number | undefined;
}

/** Tried in this order, as soon as the operation's answer is in: the first that gives a value wins. */
export const idSources: readonly IdSource[] = [
  {
    id: "team",
    from: "listEnterpriseHttpRules",
    pick: (d) =>
      rows(d)
        .map((r) => text(r.team_name))
        .find(Boolean),
  },
  {
    id: "region",
    from: "listTeamRegions",
    pick: (d) =>
      rows((d as Row | undefined)?.regions)
        .map((r) => text(r.region_name))
        .find(Boolean),
  },
  {
    id: "regionId",
    from: "listTeamRegions",
    pick: (d, ids) => text(rows((d as Row | undefined)?.regions).find((r) => r.region_name === ids.region)?.region_id),
  },
  {
    id: "app",
    from: "listApps",
    pick: (d) => rows(d).find((r) => Number.isSafeInteger(r.ID) && (r.ID as number) >= 0)?.ID as number | undefined,
  },
  {
    id: "tenant",
    from: "listApps",
    pick: (d) =>
      rows(d)
        .map((r) => text(r.tenant_id))
        .find(Boolean),
  },
  {
    id: "tenant",
    from: "listEnterpriseHttpRules",
    pick: (d, ids) => text(rows(d).find((r) => r.team_name === ids.team)?.tenant_id),
  },
  {
    id: "component",
    from: "queryComponentMonitor",
    pick: (d) =>
      rows(d)
        .map((r) => text(r.service_id))
        .find(Boolean),
  },
  {
    id: "component",
    from: "listAppHttpRules",
    pick: (d) =>
      rows(d)
        .map((r) => text(r.service_id))
        .find(Boolean),
  },
  {
    id: "component",
    from: "listEnterpriseHttpRules",
    pick: (d, ids) =>
      text(
        rows(d).find((r) => r.team_name === ids.team && r.region_name === ids.region && r.app_id === ids.app)
          ?.service_id,
      ),
  },
];

// ---- --write, and what is never sent ---------------------------------------------------------------------------------

/** The port operations, sent only with --write, as one reversible sequence on the given component. */
export const WRITE_OPERATIONS = ["addComponentPort", "updateComponentPort", "deleteComponentPort"] as const;

/** Operations the API cannot undo (or that change live traffic): never sent, whatever the options. */
export const NEVER_SENT: readonly { operationId: OperationId; why: string }[] = [
  { operationId: "createGatewayRule", why: "creates a gateway rule, which the API cannot delete" },
  { operationId: "createHttpRule", why: "creates an HTTP rule, which the API cannot delete" },
  { operationId: "installApp", why: "installs an application, which the API cannot uninstall" },
  { operationId: "updateHttpRule", why: "changes a live gateway rule" },
];

/** The first port number from 20000 up that none of `ports` uses. */
export function freePort(ports: unknown): number {
  const used = new Set(rows(ports).map((p) => p.container_port));
  let port = 20000;
  while (used.has(port)) port++;
  return port;
}

/** The sequence of --write: add a free port, change its alias, delete it; the delete is sent even when a step fails. */
export async function portSequence(
  client: RainbondClient,
  ids: Known,
  port: number,
  send: (
    operationId: (typeof WRITE_OPERATIONS)[number],
    call: () => Promise<unknown>,
  ) => Promise<{ sent: boolean; status?: number }>,
): Promise<void> {
  const scope = component(ids);
  let added: { sent: boolean; status?: number } = { sent: false };
  try {
    added = await send("addComponentPort", () => client.ports.add(scope, { port, protocol: "tcp" }));
    if (added.status !== undefined && added.status >= 200 && added.status < 300) {
      await send("updateComponentPort", () => client.ports.changeAlias(scope, port, { port_alias: `VERIFY${port}` }));
    }
  } finally {
    // A 4xx to the add means no port was made; anything else (added, a 5xx, no answer) may have made one.
    const refused = added.status !== undefined && added.status >= 400 && added.status < 500;
    if (added.sent && !refused) await send("deleteComponentPort", () => client.ports.delete(scope, port));
  }
}
