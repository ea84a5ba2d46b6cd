// The client's public surface, as types. Records and bodies come from the generated types of the spec, with the
// spec's exact snake_case field names (the irregular ones too: `domain_heander`, `is_upgrate`, `creater`).
import type { components, operations } from "../generated/schema.js";
import type { CallOptions, WithResponse } from "./transport.js";

type Schemas = components["schemas"];
type SuccessOf<R> = R extends { 200: { content: { "application/json": infer T } } }
  ? T
  : R extends { 201: { content: { "application/json": infer T } } }
    ? T
    : never;
/** What operation `O` answers on success, as the spec declares it. */
export type Data<O extends keyof operations> = SuccessOf<operations[O]["responses"]>;
/** The request body of operation `O`, as the spec declares it. */
export type Body<O extends keyof operations> = NonNullable<operations[O]["requestBody"]>["content"]["application/json"];

/** A team in a region. */
export interface RegionScope {
  teamId: string;
  regionName: string;
}
/** An application: its team, region and id. */
export interface AppScope extends RegionScope {
  appId: number;
}
/** A component of an application. */
export interface ComponentScope extends AppScope {
  serviceId: string;
}

/** A call's result: await it for the data, or call `withResponse()` for the data and the raw `Response`. */
export interface RainbondPromise<T> extends Promise<T> {
  withResponse(): Promise<WithResponse<T>>;
}

/** A sample of a monitoring series, as numbers. */
export interface Sample {
  time: Date;
  value: number;
}

export type Port = Schemas["Port"];
export type PortProtocol = Schemas["PortProtocol"];
/** The body of `ports.add`: the spec's `AddPortBody`, with the port as a number. */
export type AddPortInput = Omit<Body<"addComponentPort">, "port"> & { port: number };

export interface RegionsApi {
  /** One page of the regions enabled for a team. */
  listForTeam(
    teamId: string,
    options?: { query?: string; page?: number; pageSize?: number },
    call?: CallOptions,
  ): RainbondPromise<Data<"listTeamRegions">>;
  /**
   * Every region enabled for a team, across pages, stopping on `total` or a short page. A page repeating regions
   * already yielded (a console that ignores `page`) throws RainbondResponseError instead of looping.
   */
  iterateForTeam(
    teamId: string,
    options?: { query?: string; pageSize?: number },
    call?: CallOptions,
  ): AsyncGenerator<Schemas["TeamRegionsResp"], void, undefined>;
  /** One region; with `extendInfo: true`, its resource figures and health too. */
  get(regionId: string, options?: { extendInfo?: boolean }, call?: CallOptions): RainbondPromise<Data<"getRegion">>;
}

export interface PortsApi {
  /** The ports of a component (bare, or unwrapped from the console's envelope). */
  list(component: ComponentScope, call?: CallOptions): RainbondPromise<Port[]>;
  /** Adds a port, 1 to 65535. */
  add(component: ComponentScope, body: AddPortInput, call?: CallOptions): RainbondPromise<Port>;
  /** Changes a port: `action` says what changes. */
  update(
    component: ComponentScope,
    port: number,
    body: Body<"updateComponentPort">,
    call?: CallOptions,
  ): RainbondPromise<Port>;
  /** Deletes a port; resolves with the deleted port. */
  delete(component: ComponentScope, port: number, call?: CallOptions): RainbondPromise<Port>;
  /** Enables external service on a port (`action: "open_outer"`). */
  openOuter(component: ComponentScope, port: number, call?: CallOptions): RainbondPromise<Port>;
  /** Disables external service on a port (`action: "close_outer"`). */
  closeOuter(component: ComponentScope, port: number, call?: CallOptions): RainbondPromise<Port>;
  /** Enables internal service on a port (`action: "open_inner"`). */
  openInner(component: ComponentScope, port: number, call?: CallOptions): RainbondPromise<Port>;
  /** Disables internal service on a port (`action: "close_inner"`). */
  closeInner(component: ComponentScope, port: number, call?: CallOptions): RainbondPromise<Port>;
  /** Changes the protocol of a port (`action: "change_protocol"`). */
  changeProtocol(
    component: ComponentScope,
    port: number,
    protocol: PortProtocol,
    call?: CallOptions,
  ): RainbondPromise<Port>;
  /** Changes the alias and, optionally, the internal domain of a port (`action: "change_port_alias"`). */
  changeAlias(
    component: ComponentScope,
    port: number,
    alias: { port_alias: string; k8s_service_name?: string },
    call?: CallOptions,
  ): RainbondPromise<Port>;
}

export interface GatewayApi {
  /** The HTTP rules of the whole enterprise; `autoSsl: true` keeps those that need automatic certificates. */
  listEnterpriseHttpRules(
    options?: { autoSsl?: boolean },
    call?: CallOptions,
  ): RainbondPromise<Data<"listEnterpriseHttpRules">>;
  /** Changes an HTTP rule. Bodies spell `domain_header`; records read back spell `domain_heander`. */
  updateHttpRule(
    app: AppScope,
    ruleId: string,
    body: Body<"updateHttpRule"> | undefined,
    call?: CallOptions,
  ): RainbondPromise<Data<"updateHttpRule">>;
  /** Creates an HTTP or TCP gateway rule (`protocol` says which). Never replayed. */
  createRule(
    app: AppScope,
    body: Body<"createGatewayRule">,
    call?: CallOptions,
  ): RainbondPromise<Data<"createGatewayRule">>;
  /** Creates an HTTP rule (the console answers 201). Never replayed. */
  createHttpRule(
    app: AppScope,
    body: Body<"createHttpRule">,
    call?: CallOptions,
  ): RainbondPromise<Data<"createHttpRule">>;
  /** The HTTP rules of an application. */
  listHttpRules(app: AppScope, call?: CallOptions): RainbondPromise<Data<"listAppHttpRules">>;
}

export interface MonitorApi {
  /** The current value of each monitored item of the application's components. */
  query(
    app: AppScope,
    options?: { isOuter?: boolean },
    call?: CallOptions,
  ): RainbondPromise<Data<"queryComponentMonitor">>;
  /**
   * The monitored items from `start` to `end` (Dates or Unix seconds), one sample every `step` seconds (default 60).
   * `start < end`, `step > 0`, and at most 11,000 points per series.
   */
  queryRange(
    app: AppScope,
    options: { start: Date | number; end: Date | number; step?: number; isOuter?: boolean },
    call?: CallOptions,
  ): RainbondPromise<Data<"queryComponentMonitorRange">>;
}

export interface TeamsApi {
  /** Resource statistics of the teams asked for. */
  resources(list: Body<"listTeamResources">, call?: CallOptions): RainbondPromise<Data<"listTeamResources">>;
}

export interface AppsApi {
  /** The applications of a team in a region; `query` searches application and team names. */
  list(region: RegionScope, options?: { query?: string }, call?: CallOptions): RainbondPromise<Data<"listApps">>;
  /** Installs an application from a store; `deploy: true` builds it afterwards. Never replayed. */
  install(
    app: AppScope,
    body: Body<"installApp">,
    options?: { deploy?: boolean },
    call?: CallOptions,
  ): RainbondPromise<Data<"installApp">>;
}

export interface ComponentsApi {
  /** One component. */
  get(component: ComponentScope, call?: CallOptions): RainbondPromise<Data<"getComponent">>;
}
