// The TypeScript consumer of the matrix, compiled (never run) against the packed package (matrix.ts). It uses every
// public export (test/tooling/runtimes/consumer.test.ts holds it to src/index.ts); each `@ts-expect-error` proves the
// types are checked: were they `any`, the directive would be unused, an error of its own.
import { createRainbondClient, createRainbondCore, excerpt, RainbondAbortError } from "rainbond-openapi";
import { RainbondApiError, RainbondAuthError, RainbondBadRequestError, RainbondConflictError } from "rainbond-openapi";
import { RainbondConnectionError, RainbondError, RainbondInputError, RainbondNotFoundError } from "rainbond-openapi";
import { RainbondRateLimitError, RainbondRedirectError, RainbondResponseError, redact } from "rainbond-openapi";
import { RainbondResponseTooLargeError, RainbondServerError, RainbondTimeoutError, toSamples } from "rainbond-openapi";
import { RainbondIterationLimitError, RainbondTeamNotOpenedError } from "rainbond-openapi";
import type { AddPortInput, AppsApi, AppScope, Body, CallOptions, ClientOptions, components } from "rainbond-openapi";
import type { ComponentsApi, ComponentScope, GatewayApi, Logger, LogLevel, MonitorApi } from "rainbond-openapi";
import type { OperationData, OperationInput, operations, paths, Port, PortProtocol, PortsApi } from "rainbond-openapi";
import type { RainbondClient, RainbondCore, RainbondGroups, RainbondPromise, RegionsApi } from "rainbond-openapi";
import type { InputRule, IterationLimit, IterationLimits, RainbondErrorReason, RegionScope } from "rainbond-openapi";
import type { RequestInfo, RetryDelay, Sample, ServiceBaseInfo, TeamsApi, WithResponse } from "rainbond-openapi";

const logger: Logger = console;
const logLevel: LogLevel = "warn";
const retryDelay: Partial<RetryDelay> = { baseMs: 100, maxMs: 1_000 };
const connection = { baseUrl: "http://127.0.0.1:7070", token: "consumer-token", headers: { "x-trace": "1" } };
const options: ClientOptions = { ...connection, timeoutMs: 5_000, retries: 1, retryDelay, logger, logLevel };
const client: RainbondClient = createRainbondClient(options);
const region: RegionScope = { teamId: "q8k2mz5d", regionName: "rainbond" };
const app: AppScope = { ...region, appId: 12 };
const component: ComponentScope = { ...app, serviceId: "gr3f9c2a" };
const call: CallOptions = { timeoutMs: 1_000, retries: 0, signal: new AbortController().signal };
type Areas = [RegionsApi, PortsApi, GatewayApi, MonitorApi, TeamsApi, AppsApi, ComponentsApi];
const grouped: RainbondGroups = client;
const { regions, ports: portsApi, gateway, monitor, teams, apps, components: componentsApi } = grouped;
const areas: Areas = [regions, portsApi, gateway, monitor, teams, apps, componentsApi];

export async function use(): Promise<string[]> {
  const protocol: PortProtocol = "http";
  const input: AddPortInput = { port: 8080, protocol };
  const adding: RainbondPromise<Port> = client.ports.add(component, input, call);
  const { data: added, response }: WithResponse<Port> = await adding.withResponse();
  const port: number = added.container_port;
  const ports: components["schemas"]["Port"][] = await client.ports.list(component);
  const web: OperationData<"getComponent"> = await client.components.get(component);
  const named: ServiceBaseInfo = web;
  const core: RainbondCore = createRainbondCore(options);
  const byName: OperationInput = { path: { team_id: region.teamId }, query: { page_size: 5 } };
  const install: Body<"installApp"> | undefined = undefined;
  const getComponent: operations["getComponent"]["parameters"]["path"]["service_id"] = component.serviceId;
  const rawPorts = await client.raw.GET(
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports",
    { params: { path: { team_id: "q8k2mz5d", region_name: "rainbond", app_id: 12, service_id: "gr3f9c2a" } } },
  );
  const path: keyof paths = "/openapi/v1/httpdomains";
  const [range] = await client.monitor.queryRange(app, { start: new Date(0), end: new Date(60_000) });
  const samples: Sample[] = toSamples(range?.monitors?.[0]?.data);
  const lines = [`${port} ${response.status} ${ports.length} ${named.service_cname} ${getComponent} ${path}`];
  lines.push(`${core.baseUrl} ${Object.keys(byName).length} ${excerpt("<p>down</p>", [])} ${redact(web, [])}`);
  lines.push(`${samples.length} ${install === undefined} ${rawPorts.response.status} ${areas.length}`);

  try {
    await client.regions.get("r1", { extendInfo: true });
    const bounds: IterationLimits = { maxItems: 100, maxBytes: 1_048_576, maxMs: 60_000 };
    for await (const each of client.regions.iterateForTeam(region.teamId, { pageSize: 5, ...bounds })) {
      lines.push(each.region_name);
    }
  } catch (err) {
    if (err instanceof RainbondBadRequestError) lines.push(Object.keys(err.fieldErrors).join());
    else if (err instanceof RainbondAuthError || err instanceof RainbondNotFoundError) lines.push(`${err.status}`);
    else if (err instanceof RainbondTeamNotOpenedError) {
      const reason: RainbondErrorReason | undefined = err.reason;
      lines.push(`${reason} ${err.code}`);
    } else if (err instanceof RainbondConflictError || err instanceof RainbondRateLimitError) lines.push(`${err.code}`);
    else if (err instanceof RainbondServerError) lines.push(`${err.msgShow} ${err.requestId}`);
    else if (err instanceof RainbondApiError) {
      const where: RequestInfo = err;
      lines.push(`${where.operation} ${where.method} ${where.path} ${err.msg}`);
    } else if (err instanceof RainbondIterationLimitError) {
      const limit: IterationLimit = err.limit;
      lines.push(`${limit} ${err.maximum}`);
    } else if (err instanceof RainbondResponseTooLargeError) lines.push(`${err.maxResponseBytes}`);
    else if (err instanceof RainbondRedirectError) lines.push(err.location);
    else if (err instanceof RainbondResponseError) lines.push(err.excerpt);
    else if (err instanceof RainbondTimeoutError || err instanceof RainbondConnectionError) lines.push(err.path);
    else if (err instanceof RainbondAbortError) lines.push(err.message);
    else if (err instanceof RainbondInputError) {
      const keyword: InputRule = err.keyword;
      lines.push(`${err.operation} ${err.argument} ${keyword} ${err.rule}`);
    } else if (err instanceof RainbondError) lines.push(err.name);
  }
  return lines;
}

export function refusedByTheTypes(): void {
  // @ts-expect-error a port is a number
  void client.ports.add(component, { port: "8080", protocol: "http" });
  // @ts-expect-error a component scope has an appId
  void client.components.get({ teamId: "q8k2mz5d", regionName: "rainbond", serviceId: "gr3f9c2a" });
  // @ts-expect-error "ftp" is not a port protocol
  const protocol: PortProtocol = "ftp";
  // @ts-expect-error an input error has no HTTP status
  void new RainbondInputError("ports.add", "body.port", "is out of range", "maximum").status;
  void protocol;
}
