export interface paths {
  "/openapi/v1/teams/{team_id}/regions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the regions of a team
     * @description Lists the regions (clusters) enabled for a team, one page at a time. `page` and `page_size` default to 1 and 10; the console takes a value that is not an integer as the default.
     */
    get: operations["listTeamRegions"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/regions/{region_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a region
     * @description A region (cluster) with its addresses and certificates; with `extend_info=true`, its resource figures and health too. `key_file` is secret material: keep it out of logs and messages.
     *
     *     The console validates the record it is about to send: a region whose `ssl_ca_cert`, `cert_file` or `key_file` is empty (any plain-HTTP region) answers 400 ValidationError naming those fields, which the caller never sent. `extend_info=true` may answer 500 when the region reports its disk in another shape. The team's region list (`listTeamRegions`) carries the same addresses. `region_id` may be the region's name as well as its id.
     */
    get: operations["getRegion"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Component id. */
        service_id: components["parameters"]["ServiceId"];
      };
      cookie?: never;
    };
    /**
     * List the ports of a component
     * @description Each port with its protocol, its alias and internal domain (`k8s_service_name`), and whether its internal and external services are open (`is_inner_service`, `is_outer_service`).
     */
    get: operations["listComponentPorts"];
    put?: never;
    /**
     * Add a port to a component
     * @description Answers with the new port, whose external service stays closed (`updateComponentPort` opens it). Without `port_alias` the console names the port after the component and its number (`GR3F9C2A8080`).
     */
    post: operations["addComponentPort"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports/{port}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Component id. */
        service_id: components["parameters"]["ServiceId"];
        /** @description Port number, 1 to 65535. */
        port: components["parameters"]["Port"];
      };
      cookie?: never;
    };
    get?: never;
    /**
     * Update a port of a component
     * @description Changes a port: `action` opens or closes its external (`open_outer`, `close_outer`) or internal (`open_inner`, `close_inner`) service, or changes its protocol (`change_protocol`) or its alias and internal domain (`change_port_alias`).
     */
    put: operations["updateComponentPort"];
    post?: never;
    /**
     * Delete a port of a component
     * @description Deletes a port and answers with the deleted port.
     */
    delete: operations["deleteComponentPort"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/httpdomains": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the HTTP rules of the enterprise
     * @description Every HTTP gateway rule of every team, each with its team (`team_name`, `tenant_id`), region, application (`app_id`) and component (`service_id`).
     */
    get: operations["listEnterpriseHttpRules"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/httpdomains/{rule_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Gateway rule id. */
        rule_id: components["parameters"]["RuleId"];
      };
      cookie?: never;
    };
    get?: never;
    /**
     * Update an HTTP rule
     * @description Changes the domain, path, matches, weight or certificate of a live rule, and so what the outside network reaches. Request bodies spell the header match `domain_header`; the record read back spells it `domain_heander`.
     */
    put: operations["updateHttpRule"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/domains": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id. */
        app_id: components["parameters"]["AppIdString"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a gateway rule
     * @description Creates an HTTP or a TCP gateway rule: `protocol` says which, and the member of the same name carries it.
     */
    post: operations["createGatewayRule"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/httpdomains": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    /**
     * List the HTTP rules of an application
     * @description Each rule with its domain and path (`domain_name`, `domain_path`) and the component and port it routes to (`service_id`, `container_port`).
     */
    get: operations["listAppHttpRules"];
    put?: never;
    /**
     * Create an HTTP rule
     * @description Routes a domain and path to a port of a component of the application, and answers 201 with the new rule.
     */
    post: operations["createHttpRule"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/monitor/query": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    /**
     * Query monitoring of the components (instant)
     * @description Reads the current value of each monitored item of the application's components. Each sample is a pair of strings, a Unix timestamp then a value.
     */
    get: operations["queryComponentMonitor"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/monitor/query_range": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    /**
     * Query monitoring of the components over a time range
     * @description Reads the monitored items of the application's components from `start` to `end`, one sample every `step` seconds. Without `start` and `end` the console answers 400 "params error". The Prometheus behind the console returns at most 11,000 points per series, so `(end - start) / step` must not exceed it. Each series comes as one `value` pair without its `metric`, and against a real Prometheus the console may answer 500 (it reads `value` where range answers carry `values`).
     */
    get: operations["queryComponentMonitorRange"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/resource": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Read resource statistics of teams
     * @description Reads CPU and memory figures of each team asked for, one entry per team and region.
     */
    post: operations["listTeamResources"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
      };
      cookie?: never;
    };
    /**
     * List the applications of a team in a region
     * @description Each application with its id (`ID`, the `app_id` of the operations on an application) and name (`group_name`); `query` searches application and team names.
     */
    get: operations["listApps"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/install": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Install an application from a store
     * @description Installs the components of a store's application model (`app_model_id`, `app_model_version`) into the application. `market_access_key` is secret material: keep it out of logs and messages. A second call installs a second time: after a timeout or a lost answer, look at the application before calling again.
     */
    post: operations["installApp"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a component
     * @description Its image and command, its resources (`min_cpu`, `min_memory`, `min_node`), its state (`status`) and how it is reached (`access_infos`).
     */
    get: operations["getComponent"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description One region enabled for a team (element of the team region list). */
    TeamRegionsResp: {
      /** @description Region identifier. */
      region_id: string;
      /** @description Region name. */
      region_name: string;
      /** @description Region alias. */
      region_alias: string;
      /** @description Tenant name. */
      tenant_name: string;
      /** @description Region API address. */
      url: string;
      /** @description Region websocket address. */
      wsurl: string;
      /** @description Root domain for HTTP access to applications in the region. */
      httpdomain: string;
      /** @description Root domain for TCP access to applications in the region. */
      tcpdomain: string;
      /** @description Region token. Secret material; keep it out of logs and messages. */
      token?: string | null;
      /**
       * @description Region status code: `0` editing, `1` enabled, `2` disabled, `3` under maintenance.
       * @enum {string}
       */
      status: "0" | "1" | "2" | "3";
      /** @description Region description. */
      desc: string;
      /** @description Region scope. */
      scope?: string;
    };
    /** @description One page of the regions enabled for a team. */
    ListTeamRegionsResp: {
      /** @description Number of regions across all pages. */
      total: number;
      /** @description The regions of this page. */
      regions: components["schemas"]["TeamRegionsResp"][];
    };
    /** @description The console's error body. The usual shape is `{code, msg, msg_show}`; a request that fails validation answers `{detail, err, code: 20400, error_type: ValidationError}`; an authentication failure adds `detail` and `error_type`; some handlers send only `msg`. `code` is often the HTTP status, but can be a business code (2000 team not found, 3000 region not found, 4000 app not found, 2001 team not initialised in region, 10400 invalid licence, 10406 resource not enough). Some 404s have an empty body or the JSON `null`. */
    ConsoleError: {
      /** @description The HTTP status or a business code. */
      code?: number;
      /** @description Message in English. */
      msg?: string;
      /** @description Message for people. */
      msg_show?: string;
      /** @description Short description (authentication and validation errors). */
      detail?: string;
      /** @description Validation errors, field name to messages. */
      err?: {
        [key: string]: string[] | Record<string, never>;
      };
      /** @description Class of the error, e.g. `AuthenticationFailed`, `ValidationError`. */
      error_type?: string;
      /** @description A server stack trace some deployments add. The client drops it. */
      error_trace?: string;
      /** @description The envelope's data (`bean` and `list`, both empty) of an error the console raised itself. */
      data?: Record<string, never>;
      /** @description The exception's class details of an unhandled error (`args`, `message`, `module`). */
      error_details?: Record<string, never>;
    };
    /** @description One region (cluster), with resource figures when `extend_info` is `true`. */
    RegionInfoR: {
      /** @description Region name. */
      region_name: string;
      /** @description Region nickname. */
      region_alias: string;
      /** @description Region API address. */
      url: string | null;
      /** @description Websocket address. */
      wsurl: string | null;
      /** @description HTTP root domain. */
      httpdomain: string | null;
      /** @description TCP root domain. */
      tcpdomain: string | null;
      /** @description Scope. */
      scope: string | null;
      /** @description CA certificate content. */
      ssl_ca_cert: string | null;
      /** @description Certificate content. */
      cert_file: string | null;
      /** @description Key file content. Secret material; keep it out of logs and messages. */
      key_file: string | null;
      /** @description Description. */
      desc: string | null;
      /** @description Storage used. */
      used_disk?: number;
      /** @description Storage total. */
      total_disk?: number;
      /** @description Memory used. */
      used_memory?: number;
      /** @description Memory total. */
      total_memory?: number;
      /** @description CPU used. */
      used_cpu?: number;
      /** @description CPU total. */
      total_cpu?: number;
      /** @description Cluster health. */
      health_status?: string;
      /** @description Status. */
      status?: string;
      /** @description Management nodes (declared by the console, not filled). */
      manage_node?: number;
      /** @description Management nodes not ready (declared, not filled). */
      notready_manage_node?: number;
      /** @description Compute nodes (declared, not filled). */
      compute_node?: number;
      /** @description Compute nodes not ready (declared, not filled). */
      notready_compute_node?: number;
      /** @description etcd nodes (declared, not filled). */
      etcd_node?: number;
      /** @description etcd nodes not ready (declared, not filled). */
      notready_etcd_node?: number;
    };
    /**
     * @description Protocol of a port.
     * @enum {string}
     */
    PortProtocol: "tcp" | "http" | "mysql" | "grpc" | "udp";
    /** @description A network port of a component; returned by all port operations. */
    Port: {
      /** @description Port number. */
      container_port: number;
      protocol: components["schemas"]["PortProtocol"];
      /** @description Port alias. */
      port_alias: string;
      /** @description Internal service enabled. */
      is_inner_service: boolean;
      /** @description External service enabled. */
      is_outer_service: boolean;
      /** @description Name of the service inside the cluster (internal domain). */
      k8s_service_name: string;
      /** @description The port the component is mapped to inside the cluster (the console's own record). */
      mapping_port?: number;
      /** @description The gateway's port for this port when it is open to the outside; 0 when none. */
      lb_mapping_port?: number;
    };
    /** @description Body of adding a port to a component. */
    AddPortBody: {
      /** @description Port number, 1 to 65535, as a decimal string. */
      port: string;
      protocol?: components["schemas"]["PortProtocol"];
      /** @description Port alias. */
      port_alias?: string;
      /**
       * @description Whether to enable the internal service. The console requires it; when it is left out, `false` (the default) is sent.
       * @default false
       */
      is_inner_service?: boolean;
    };
    /** @description Body of updating a port. `action` says what changes. */
    UpdatePortBody: {
      /**
       * @description `open_outer` enables external service on the port (its internal service must be open) and creates its default gateway rule; `only_open_outer` enables it without either; `close_outer` disables it; `open_inner` enables internal service; `close_inner` disables it; `change_protocol` changes the port protocol; `change_port_alias` changes the port alias and the internal domain (`k8s_service_name`, which the console needs with it).
       * @enum {string}
       */
      action:
        | "open_outer"
        | "close_outer"
        | "open_inner"
        | "close_inner"
        | "change_protocol"
        | "change_port_alias"
        | "only_open_outer";
      protocol?: components["schemas"]["PortProtocol"];
      /**
       * @description Port alias.
       * @example WEB8080
       */
      port_alias?: string;
      /**
       * @description Name of the service inside the cluster.
       * @example web-8080
       */
      k8s_service_name?: string;
    };
    /** @description An HTTP gateway rule, as listed enterprise-wide. */
    EnterpriseHTTPGatewayRule: {
      /** @description Record id. */
      readonly ID?: number;
      /** @description Region of the rule. */
      region_name: string;
      /** @description Unique team name. */
      team_name: string;
      /** @description Application id. */
      app_id: number;
      /** @description Automatic certificate issuing method; null when the rule has none. */
      auto_ssl_config: string | null;
      /** @description Rule id. */
      http_rule_id: string;
      /** @description Region id. */
      region_id: string;
      /** @description Tenant id. */
      tenant_id: string;
      /** @description Component id. */
      service_id: string;
      /** @description Component name. */
      service_name: string;
      /** @description Domain. */
      domain_name: string;
      /** @description Container port. */
      container_port?: number;
      /** @description Domain type. */
      protocol?: string;
      /** @description Certificate id. */
      certificate_id?: number;
      /** @description Component domain type. */
      domain_type?: string;
      /** @description Component alias. */
      service_alias?: string;
      /** @description Has advanced routing. */
      is_senior?: boolean;
      /** @description Path. */
      domain_path?: string;
      /** @description Cookie match. */
      domain_cookie?: string;
      /** @description Header match. The console spells this field `domain_heander` in output. */
      domain_heander?: string;
      /**
       * @description `0` default, `1` custom.
       * @enum {integer}
       */
      type?: 0 | 1;
      /** @description Weight. */
      the_weight?: number;
      /** @description Extensions. */
      rule_extensions?: string;
      /** @description External port already enabled. */
      is_outer_service?: boolean;
      /** @description Automatic certificate matching and upgrade to https (the upgrade is done by an external service). */
      auto_ssl?: boolean;
      /** @description Simple route rewriting enabled. */
      path_rewrite?: boolean;
      /** @description Complex rewrite configuration. */
      rewrites?: string;
    };
    /** @description Body of an HTTP rule update. */
    UpdatePostHTTPGatewayRule: {
      /** @description Component id. */
      service_id: string;
      /** @description Bound port. */
      container_port?: number;
      /** @description Certificate id. */
      certificate_id?: number;
      /** @description Domain. */
      domain_name?: string;
      /** @description Cookie match. */
      domain_cookie?: string;
      /** @description Header match (spelled `domain_header` in request bodies, `domain_heander` in records read back). */
      domain_header?: string;
      /** @description Weight. */
      the_weight?: number;
      /** @description Path. */
      domain_path?: string;
      /** @description Rule extensions. */
      rule_extensions?: string[];
      /** @description Whether opened. */
      whether_open?: boolean;
      /** @description Automatic certificate matching. */
      auto_ssl?: boolean;
      /** @description Automatic certificate distribution configuration. */
      auto_ssl_config?: string;
    };
    /** @description An HTTP gateway rule of an application. */
    HTTPGatewayRule: {
      /** @description Record id. */
      readonly ID?: number;
      /** @description Rule id. */
      http_rule_id: string;
      /** @description Region id. */
      region_id: string;
      /** @description Tenant id. */
      tenant_id: string;
      /** @description Component id. */
      service_id: string;
      /** @description Component name. */
      service_name: string;
      /** @description Domain. */
      domain_name: string;
      /** @description Container port. */
      container_port?: number;
      /** @description Domain type. */
      protocol?: string;
      /** @description Certificate id. */
      certificate_id?: number;
      /** @description Component domain type. */
      domain_type?: string;
      /** @description Component alias. */
      service_alias?: string;
      /** @description Has advanced routing. */
      is_senior?: boolean;
      /** @description Path. */
      domain_path?: string;
      /** @description Cookie match. */
      domain_cookie?: string;
      /** @description Header match. The console spells this field `domain_heander` in output (`domain_header` in request bodies). */
      domain_heander?: string;
      /**
       * @description `0` default, `1` custom.
       * @enum {integer}
       */
      type?: 0 | 1;
      /** @description Weight. */
      the_weight?: number;
      /** @description Extensions. */
      readonly rule_extensions?: string[];
      /** @description External port already enabled. */
      is_outer_service?: boolean;
      /** @description Automatic certificate matching and upgrade to https (the upgrade is done by an external service). */
      auto_ssl?: boolean;
      /** @description Automatic certificate distribution configuration. */
      auto_ssl_config?: string | null;
      /** @description Simple route rewriting enabled. */
      path_rewrite?: boolean;
      /** @description Complex rewrite configuration: a JSON text (`"[]"`) in list and update answers, an array in the answer of `createHttpRule`. */
      rewrites?: string | unknown[];
    };
    /** @description A key and its value. */
    KeyValue: {
      /** @description Key. */
      key: string;
      /** @description Value. */
      value: string;
    };
    /** @description The `tcp` member of `PostGatewayRule`. */
    PostTCPRule: {
      /** @description Bound port. */
      container_port: number;
      /** @description Component id. */
      service_id: string;
      /** @description End point (address and port the gateway listens on). */
      end_point: string;
      /** @description Rule extensions. */
      rule_extensions?: components["schemas"]["TCPRuleExtension"][];
      /** @description Default port. */
      default_port: number;
      /** @description Default IP. */
      default_ip: string;
    };
    /** @description Proxy configuration of an HTTP rule (the `configuration` member of `Http`). */
    HttpConfiguration: {
      /** @description Proxy body size. Template value `0`. */
      proxy_body_size?: number;
      /** @description Number of proxy buffers. Template value `4`. */
      proxy_buffer_numbers?: number;
      /** @description Proxy buffer size. Template value `4`. */
      proxy_buffer_size?: number;
      /** @description Proxy buffering. Template value `off`. */
      proxy_buffering?: string;
      /** @description Proxy connect timeout. Template value `75`. */
      proxy_connect_timeout?: number;
      /** @description Proxy read timeout. Template value `60`. */
      proxy_read_timeout?: number;
      /** @description Proxy send timeout. Template value `60`. */
      proxy_send_timeout?: number;
      /** @description Headers to set. The template has one entry. */
      set_headers?: components["schemas"]["KeyValue"][];
    };
    /** @description Body of HTTP rule creation, and the `http` member of `PostGatewayRule`. */
    Http: {
      /** @description Component id. */
      service_id: string;
      /** @description Bound port. */
      container_port: number;
      /**
       * @description Certificate id.
       * @default 0
       */
      certificate_id?: number;
      /** @description Domain. */
      domain_name: string;
      /** @description Cookie match. */
      domain_cookie?: string;
      /** @description Header match (spelled `domain_header` in request bodies, `domain_heander` in records read back). */
      domain_header?: string;
      /** @description Weight. */
      the_weight?: number;
      /**
       * @description Path. Template value `/`.
       * @default /
       */
      domain_path?: string;
      /**
       * @description Rule extensions. Template value `[]`.
       * @default []
       */
      rule_extensions?: string[];
      /**
       * @description Whether to open the component's port to the outside with the rule. With `false` (the default) and the port not open yet, the console refuses the rule (400 "没有开启对外端口"): pass `true`.
       * @default false
       */
      whether_open?: boolean;
      /**
       * @description Automatic certificate matching. Template value `false`.
       * @default false
       */
      auto_ssl?: boolean;
      /** @description Automatic certificate distribution configuration. */
      auto_ssl_config?: string;
      configuration?: components["schemas"]["HttpConfiguration"];
    };
    /** @description Body of gateway rule creation. */
    PostGatewayRule: {
      /** @description Which kind of rule to create; the values used are `http` and `tcp`. */
      protocol: string;
      tcp?: components["schemas"]["PostTCPRule"];
      http?: components["schemas"]["Http"];
    };
    /** @description A TCP gateway rule record. */
    TCPGatewayRule: {
      /** @description Record id. */
      ID: number;
      /** @description Rule id. */
      tcp_rule_id: string;
      /** @description Region id. */
      region_id: string;
      /** @description Tenant id. */
      tenant_id: string;
      /** @description Component id. */
      service_id: string;
      /** @description Component name. */
      service_name: string;
      /** @description End point. */
      end_point: string;
      /** @description Protocol. */
      protocol: string;
      /** @description Container port. */
      container_port: number;
      /** @description Component alias. */
      service_alias: string;
      /** @description Rule type. */
      type: number;
      /** @description Extensions. */
      rule_extensions: string | null;
      /** @description External port already enabled. */
      is_outer_service: boolean;
    };
    /** @description Response of gateway rule creation. */
    GatewayRule: {
      /** @description HTTP rules (records read back spell `domain_heander`). */
      http?: components["schemas"]["HTTPGatewayRule"][];
      /** @description TCP rules. */
      tcp?: components["schemas"]["TCPGatewayRule"][];
    };
    /** @description One sample of a series. */
    MonitorDataSerializers: {
      /** @description A pair, the Unix timestamp then the value, each as a string. */
      value: string[];
    };
    /** @description A monitoring query result. */
    Data: {
      /** @description Result type. */
      resultType?: string;
      /** @description The series. */
      result: components["schemas"]["MonitorDataSerializers"][];
    };
    /** @description One monitored item of a component. */
    ComponentMonitorItemsSerializers: {
      data?: components["schemas"]["Data"];
      /** @description The monitored item. */
      monitor_item: string;
      /** @description Monitoring status. */
      status?: string;
    };
    /** @description Monitoring data of one component. */
    ComponentMonitorSerializers: {
      /** @description The monitored items. */
      monitors?: components["schemas"]["ComponentMonitorItemsSerializers"][] | null;
      /** @description Component id. */
      service_id: string;
      /** @description Component name. */
      service_cname: string;
      /** @description Component nickname. */
      service_alias: string;
    };
    /** @description A team in a region, as asked for in team resource statistics. */
    TenantRegionList: {
      /** @description Tenant (team) id. */
      tenant_id: string;
      /** @description Region name. */
      region_name: string;
    };
    /** @description Resource statistics of one team. */
    TeamAppsResource: {
      /** @description CPU total. */
      total_cpu?: number;
      /** @description Memory total. */
      total_memory?: number;
      /** @description CPU used. */
      used_cpu?: number;
      /** @description Memory used. */
      used_memory?: number;
      /** @description CPU used, in percent. */
      used_cpu_percentage?: number;
      /** @description Memory used, in percent. */
      used_memory_percentage?: number;
      /** @description Team id. */
      team_id: string;
      /** @description Team name. */
      team_name: string;
      /** @description Team alias. */
      team_alias: string;
    };
    /** @description An application. */
    AppBaseInfo: {
      /** @description Application id (the `app_id` of the operations on an application). */
      readonly ID?: number;
      /** @description Tenant id. */
      tenant_id: string;
      /** @description Application name. */
      group_name: string;
      /** @description Region name. */
      region_name: string;
      /** @description Default flag. */
      is_default?: boolean;
      /** @description Ordering. */
      order_index?: number;
      /** @description Note. */
      note?: string | null;
      /** @description Principal's username. */
      username?: string | null;
      /** @description Governance mode. */
      governance_mode?: string | null;
      /** @description Time in the console's own time zone, ISO 8601 without a UTC offset (e.g. `2026-11-27T00:24:07.806917`). */
      create_time: string;
      /** @description Time in the console's own time zone, ISO 8601 without a UTC offset (e.g. `2026-11-27T00:24:07.806917`). */
      update_time: string;
      /** @description Application type. */
      app_type?: string;
      /** @description Store name. */
      app_store_name?: string | null;
      /** @description Store URL. */
      app_store_url?: string | null;
      /** @description Template name. */
      app_template_name?: string | null;
      /** @description Helm application version. */
      version?: string | null;
      /** @description Logo. */
      logo?: string | null;
      /** @description Application name inside the cluster. */
      k8s_app?: string;
    };
    /** @description Body of installing an application from a store. */
    Install: {
      /** @description Store address. */
      market_url: string;
      /** @description Store domain. */
      market_domain: string;
      /** @description Store type; send the standard store type unless the store is of another kind. */
      market_type: string;
      /** @description Store access token. Secret material; keep it out of logs and messages. */
      market_access_key: string | null;
      /** @description Application model id. */
      app_model_id: string;
      /** @description Application model version. */
      app_model_version: string;
    };
    /** @description A component. */
    ServiceBaseInfo: {
      /** @description Component status. */
      status?: string;
      /** @description Access addresses. */
      access_infos?: string[];
      /** @description Component id. */
      service_id: string;
      /** @description Tenant id. */
      tenant_id: string;
      /** @description Component key. */
      service_key: string;
      /** @description Component alias. */
      service_alias: string;
      /** @description Component name. */
      service_cname?: string;
      /** @description Region of the component. */
      service_region: string;
      /** @description Description. */
      desc?: string | null;
      /** @description Category. */
      category: string;
      /** @description Version. */
      version: string;
      /** @description Internal release count. */
      update_version?: number;
      /** @description Image. */
      image: string;
      /** @description Start arguments. */
      cmd?: string | null;
      /** @description Instance count. */
      min_node?: number;
      /** @description Cpu quota, 1000 = 1 core. */
      min_cpu?: number;
      /** @description Gpu memory amount. */
      container_gpu?: number;
      /** @description Memory size in M. */
      min_memory?: number;
      /** @description Deployment type: stateless or state. */
      extend_method?: string;
      /** @description Code origin, e.g. gitlab, github. */
      code_from?: string | null;
      /** @description Code repository. */
      git_url?: string | null;
      /** @description Project id in the code host. */
      git_project_id?: number;
      /** @description Code version. */
      code_version?: string | null;
      /** @description Type, e.g. web, mysql, redis, mongodb, phpadmin. */
      service_type?: string | null;
      /** @description Creator. The console spells this field `creater`. */
      creater?: number;
      /** @description Code language. */
      language?: string | null;
      /** @description Memory used, in M. */
      total_memory?: number;
      /** @description Whether an internal component. */
      is_service?: boolean;
      /** @description Creation type: cloud (market component) or assistant. */
      service_origin?: string;
      /** @description Id of the component group; set for components installed from an application template. */
      tenant_service_group_id?: number;
      /** @description Automatic deploy trigger (legacy). */
      open_webhooks?: boolean;
      /** @description Source: source_code, market, docker_run, docker_compose. */
      service_source?: string | null;
      /** @description Creation status, e.g. creating. */
      create_status?: string | null;
      /** @description Detection id. */
      check_uuid?: string | null;
      /** @description Detection event id. */
      check_event_id?: string | null;
      /** @description Image creation command. */
      docker_cmd?: string | null;
      /** @description Source repository type. */
      server_type?: string;
      /** @description Whether updatable. The console spells this field `is_upgrate`. */
      is_upgrate?: boolean;
      /** @description Upgrade after build. */
      build_upgrade?: boolean;
      /** @description OAuth service id used to pull source. */
      oauth_service_id?: number | null;
      /** @description Component name in the cluster. */
      k8s_component_name: string;
      /** @description CPU architecture the component runs on, e.g. `amd64`. */
      arch?: string | null;
      /** @description Source build strategy (empty when none). */
      build_strategy?: string | null;
      /** @description Path of the Dockerfile (empty when none). */
      dockerfile?: string | null;
      /** @description Job strategy of a job component (empty when none). */
      job_strategy?: string | null;
    };
    /** @description The result of installing an application from a store. */
    MarketInstall: {
      /** @description Enterprise id. */
      enterprise_id: string;
      /** @description Team id. */
      team_id: string;
      /** @description Note. */
      note: string;
      /** @description Application id. */
      ID: number;
      /** @description Region name. */
      region_name: string;
      /** @description The installed components. */
      service_list: components["schemas"]["ServiceBaseInfo"][];
    };
    /** @description A key and its value of a TCP rule extension, each at most 32 characters. */
    TCPRuleExtension: {
      /** @description Key. */
      key: string;
      /** @description Value. */
      value: string;
    };
  };
  responses: {
    /** @description The request was refused: a body that fails validation (with `err`), or missing parameters such as `start`/`end` of range monitoring ("params error"). */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "detail": "参数错误",
         *       "err": {
         *         "container_port": [
         *           "该字段是必填项。"
         *         ]
         *       },
         *       "code": 20400,
         *       "error_type": "ValidationError"
         *     }
         */
        "application/json": components["schemas"]["ConsoleError"];
      };
    };
    /** @description No token, or an unknown one. The token goes in `Authorization` as is, without `Bearer`. */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "detail": "No token",
         *       "code": 401,
         *       "msg": "No token",
         *       "msg_show": "No token",
         *       "error_type": "AuthenticationFailed"
         *     }
         */
        "application/json": components["schemas"]["ConsoleError"];
      };
    };
    /** @description The token may not do this. */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 403,
         *       "msg": "no permission",
         *       "msg_show": "您无权限执行此操作"
         *     }
         */
        "application/json": components["schemas"]["ConsoleError"];
      };
    };
    /** @description The team, region, application, component or rule does not exist. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 4000,
         *       "msg": "app not found",
         *       "msg_show": "应用不存在"
         *     }
         */
        "application/json": components["schemas"]["ConsoleError"];
      };
    };
    /** @description The change conflicts with the current state (for example, a port or domain that already exists), or the team is not opened in the region: `code` 2001, "the team is not initialized in the region", inside the console's envelope. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 409,
         *       "msg": "port already exists",
         *       "msg_show": "端口已存在"
         *     }
         */
        "application/json": components["schemas"]["ConsoleError"];
      };
    };
    /** @description The request cannot be met in the current state, with a business `code` such as 10400 invalid licence or 10406 resource not enough. */
    PreconditionFailed: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 10406,
         *       "msg": "resource not enough",
         *       "msg_show": "资源不足"
         *     }
         */
        "application/json": components["schemas"]["ConsoleError"];
      };
    };
    /** @description The console failed. An unhandled exception answers `code` 10401 with its text in `msg` and the whole Python traceback in `msg_show` (plus `error_type`, `error_trace`, `error_details`). A reverse proxy in front of it may instead answer 502, 503 or 504 with an HTML page. */
    InternalServerError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 500,
         *       "msg": "internal error",
         *       "msg_show": "系统异常"
         *     }
         */
        "application/json": components["schemas"]["ConsoleError"];
      };
    };
  };
  parameters: {
    /** @description Team id. */
    TeamId: string;
    /** @description Region id or name. */
    RegionId: string;
    /** @description Whether the resource figures (`used_*`, `total_*`, `health_status`) are wanted. The console reads it as the string `true` or `false`. */
    ExtendInfo: "true" | "false";
    /** @description Region name. */
    RegionName: string;
    /** @description Application id, a non-negative integer. */
    AppId: number;
    /** @description Component id. */
    ServiceId: string;
    /** @description Port number, 1 to 65535. */
    Port: string;
    /** @description Only the rules that need automatic certificate matching. The console reads it as the string `true` or `false`. */
    AutoSsl: "true" | "false";
    /** @description Gateway rule id. */
    RuleId: string;
    /** @description Application id. */
    AppIdString: string;
    /** @description Restrict to components with external access. The console reads it as the string `true` or `false`. */
    IsOuter: "true" | "false";
    /** @description Whether to build and deploy after installing. The console reads it as the string `true` or `false`. */
    IsDeploy: "true" | "false";
  };
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listTeamRegions: {
    parameters: {
      query?: {
        /** @description Page number, from 1 (default 1). */
        page?: string;
        /** @description Items per page (default 10). */
        page_size?: string;
      };
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of the team's regions. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "total": 1,
           *       "regions": [
           *         {
           *           "region_id": "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60",
           *           "region_name": "rainbond",
           *           "region_alias": "Default cluster",
           *           "tenant_name": "q8k2mz5d",
           *           "url": "https://10.0.0.11:8443",
           *           "wsurl": "wss://10.0.0.11:6060",
           *           "httpdomain": "1a2b3c.grapps.cn",
           *           "tcpdomain": "10.0.0.11",
           *           "token": null,
           *           "status": "1",
           *           "desc": "Production cluster in Hangzhou",
           *           "scope": "private"
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["ListTeamRegionsResp"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  getRegion: {
    parameters: {
      query?: {
        /** @description Region name or id. */
        region_id?: string;
        /** @description Whether the resource figures (`used_*`, `total_*`, `health_status`) are wanted. The console reads it as the string `true` or `false`. */
        extend_info?: components["parameters"]["ExtendInfo"];
      };
      header?: never;
      path: {
        /** @description Region id or name. */
        region_id: components["parameters"]["RegionId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The region. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "region_name": "rainbond",
           *       "region_alias": "Default cluster",
           *       "url": "https://10.0.0.11:8443",
           *       "wsurl": "wss://10.0.0.11:6060",
           *       "httpdomain": "1a2b3c.grapps.cn",
           *       "tcpdomain": "10.0.0.11",
           *       "scope": "private",
           *       "ssl_ca_cert": "-----BEGIN CERTIFICATE-----\nMIIC...CA\n-----END CERTIFICATE-----",
           *       "cert_file": "-----BEGIN CERTIFICATE-----\nMIIC...CLIENT\n-----END CERTIFICATE-----",
           *       "key_file": "-----BEGIN RSA PRIVATE KEY-----\nMIIE...EXAMPLE\n-----END RSA PRIVATE KEY-----",
           *       "desc": "Production cluster in Hangzhou",
           *       "used_disk": 120.5,
           *       "total_disk": 500,
           *       "used_memory": 24576,
           *       "total_memory": 65536,
           *       "used_cpu": 6.5,
           *       "total_cpu": 16,
           *       "health_status": "healthy",
           *       "status": "1"
           *     }
           */
          "application/json": components["schemas"]["RegionInfoR"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  listComponentPorts: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Component id. */
        service_id: components["parameters"]["ServiceId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The component's ports. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "container_port": 8080,
           *         "protocol": "http",
           *         "port_alias": "GR3F9C2A8080",
           *         "is_inner_service": true,
           *         "is_outer_service": false,
           *         "k8s_service_name": "gr3f9c2a-8080"
           *       },
           *       {
           *         "container_port": 3306,
           *         "protocol": "mysql",
           *         "port_alias": "GR3F9C2A3306",
           *         "is_inner_service": true,
           *         "is_outer_service": false,
           *         "k8s_service_name": "gr3f9c2a-3306"
           *       }
           *     ]
           */
          "application/json": components["schemas"]["Port"][];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  addComponentPort: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Component id. */
        service_id: components["parameters"]["ServiceId"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "port": "8080",
         *       "protocol": "http",
         *       "port_alias": "GR3F9C2A8080",
         *       "is_inner_service": true
         *     }
         */
        "application/json": components["schemas"]["AddPortBody"];
      };
    };
    responses: {
      /** @description The added port. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "container_port": 8080,
           *       "protocol": "http",
           *       "port_alias": "GR3F9C2A8080",
           *       "is_inner_service": true,
           *       "is_outer_service": false,
           *       "k8s_service_name": "gr3f9c2a-8080"
           *     }
           */
          "application/json": components["schemas"]["Port"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  updateComponentPort: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Component id. */
        service_id: components["parameters"]["ServiceId"];
        /** @description Port number, 1 to 65535. */
        port: components["parameters"]["Port"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "action": "open_outer"
         *     }
         */
        "application/json": components["schemas"]["UpdatePortBody"];
      };
    };
    responses: {
      /** @description The port after the change. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "container_port": 8080,
           *       "protocol": "http",
           *       "port_alias": "GR3F9C2A8080",
           *       "is_inner_service": true,
           *       "is_outer_service": true,
           *       "k8s_service_name": "gr3f9c2a-8080"
           *     }
           */
          "application/json": components["schemas"]["Port"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  deleteComponentPort: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Component id. */
        service_id: components["parameters"]["ServiceId"];
        /** @description Port number, 1 to 65535. */
        port: components["parameters"]["Port"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deleted port. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "container_port": 8080,
           *       "protocol": "http",
           *       "port_alias": "GR3F9C2A8080",
           *       "is_inner_service": true,
           *       "is_outer_service": false,
           *       "k8s_service_name": "gr3f9c2a-8080"
           *     }
           */
          "application/json": components["schemas"]["Port"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  listEnterpriseHttpRules: {
    parameters: {
      query?: {
        /** @description Only the rules that need automatic certificate matching. The console reads it as the string `true` or `false`. */
        auto_ssl?: components["parameters"]["AutoSsl"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The enterprise's HTTP rules. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "ID": 37,
           *         "region_name": "rainbond",
           *         "team_name": "q8k2mz5d",
           *         "app_id": 12,
           *         "auto_ssl_config": "letsencrypt-http01",
           *         "http_rule_id": "5f2e8a1c9b7d4e3f",
           *         "region_id": "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60",
           *         "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *         "service_id": "gr3f9c2a",
           *         "service_name": "web-frontend",
           *         "domain_name": "shop.example.org",
           *         "container_port": 8080,
           *         "protocol": "http",
           *         "certificate_id": 0,
           *         "domain_type": "www",
           *         "service_alias": "gr3f9c2a",
           *         "is_senior": false,
           *         "domain_path": "/",
           *         "domain_cookie": "",
           *         "domain_heander": "",
           *         "type": 1,
           *         "the_weight": 100,
           *         "rule_extensions": "",
           *         "is_outer_service": true,
           *         "auto_ssl": true,
           *         "path_rewrite": false,
           *         "rewrites": ""
           *       }
           *     ]
           */
          "application/json": components["schemas"]["EnterpriseHTTPGatewayRule"][];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  updateHttpRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Gateway rule id. */
        rule_id: components["parameters"]["RuleId"];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "service_id": "gr3f9c2a",
         *       "container_port": 8080,
         *       "domain_name": "shop.example.org",
         *       "domain_path": "/api",
         *       "domain_header": "X-Canary=true",
         *       "the_weight": 50,
         *       "rule_extensions": [],
         *       "whether_open": true,
         *       "auto_ssl": false
         *     }
         */
        "application/json": components["schemas"]["UpdatePostHTTPGatewayRule"];
      };
    };
    responses: {
      /** @description The rule after the change. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ID": 37,
           *       "http_rule_id": "5f2e8a1c9b7d4e3f",
           *       "region_id": "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60",
           *       "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *       "service_id": "gr3f9c2a",
           *       "service_name": "web-frontend",
           *       "domain_name": "shop.example.org",
           *       "container_port": 8080,
           *       "protocol": "http",
           *       "certificate_id": 0,
           *       "domain_type": "www",
           *       "service_alias": "gr3f9c2a",
           *       "is_senior": false,
           *       "domain_path": "/api",
           *       "domain_cookie": "",
           *       "domain_heander": "X-Canary=true",
           *       "type": 1,
           *       "the_weight": 50,
           *       "rule_extensions": [],
           *       "is_outer_service": true,
           *       "auto_ssl": false,
           *       "auto_ssl_config": null,
           *       "path_rewrite": false,
           *       "rewrites": ""
           *     }
           */
          "application/json": components["schemas"]["HTTPGatewayRule"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  createGatewayRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id. */
        app_id: components["parameters"]["AppIdString"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "protocol": "tcp",
         *       "tcp": {
         *         "container_port": 3306,
         *         "service_id": "gr3f9c2a",
         *         "end_point": "0.0.0.0:30306",
         *         "rule_extensions": [
         *           {
         *             "key": "proxy_timeout",
         *             "value": "60s"
         *           }
         *         ],
         *         "default_port": 30306,
         *         "default_ip": "0.0.0.0"
         *       }
         *     }
         */
        "application/json": components["schemas"]["PostGatewayRule"];
      };
    };
    responses: {
      /** @description The created rules. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "http": [],
           *       "tcp": [
           *         {
           *           "ID": 9,
           *           "tcp_rule_id": "8d1e4b7a2c5f4a9e",
           *           "region_id": "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60",
           *           "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *           "service_id": "gr3f9c2a",
           *           "service_name": "mysql",
           *           "end_point": "0.0.0.0:30306",
           *           "protocol": "tcp",
           *           "container_port": 3306,
           *           "service_alias": "gr3f9c2a",
           *           "type": 1,
           *           "rule_extensions": "proxy_timeout:60s",
           *           "is_outer_service": true
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["GatewayRule"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  listAppHttpRules: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The application's HTTP rules. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "ID": 37,
           *         "http_rule_id": "5f2e8a1c9b7d4e3f",
           *         "region_id": "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60",
           *         "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *         "service_id": "gr3f9c2a",
           *         "service_name": "web-frontend",
           *         "domain_name": "shop.example.org",
           *         "container_port": 8080,
           *         "protocol": "http",
           *         "certificate_id": 0,
           *         "domain_type": "www",
           *         "service_alias": "gr3f9c2a",
           *         "is_senior": false,
           *         "domain_path": "/",
           *         "domain_cookie": "",
           *         "domain_heander": "",
           *         "type": 1,
           *         "the_weight": 100,
           *         "rule_extensions": [],
           *         "is_outer_service": true,
           *         "auto_ssl": false,
           *         "auto_ssl_config": null,
           *         "path_rewrite": false,
           *         "rewrites": ""
           *       }
           *     ]
           */
          "application/json": components["schemas"]["HTTPGatewayRule"][];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  createHttpRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "service_id": "gr3f9c2a",
         *       "container_port": 8080,
         *       "domain_name": "shop.example.org",
         *       "domain_path": "/",
         *       "domain_header": "",
         *       "rule_extensions": [],
         *       "whether_open": false,
         *       "auto_ssl": false,
         *       "configuration": {
         *         "proxy_body_size": 0,
         *         "proxy_buffer_numbers": 4,
         *         "proxy_buffer_size": 4,
         *         "proxy_buffering": "off",
         *         "proxy_connect_timeout": 75,
         *         "proxy_read_timeout": 60,
         *         "proxy_send_timeout": 60,
         *         "set_headers": [
         *           {
         *             "key": "X-Forwarded-Proto",
         *             "value": "https"
         *           }
         *         ]
         *       }
         *     }
         */
        "application/json": components["schemas"]["Http"];
      };
    };
    responses: {
      /** @description The created rule. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ID": 37,
           *       "http_rule_id": "5f2e8a1c9b7d4e3f",
           *       "region_id": "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60",
           *       "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *       "service_id": "gr3f9c2a",
           *       "service_name": "web-frontend",
           *       "domain_name": "shop.example.org",
           *       "container_port": 8080,
           *       "protocol": "http",
           *       "certificate_id": 0,
           *       "domain_type": "www",
           *       "service_alias": "gr3f9c2a",
           *       "is_senior": false,
           *       "domain_path": "/",
           *       "domain_cookie": "",
           *       "domain_heander": "",
           *       "type": 1,
           *       "the_weight": 100,
           *       "rule_extensions": [],
           *       "is_outer_service": true,
           *       "auto_ssl": false,
           *       "auto_ssl_config": null,
           *       "path_rewrite": false,
           *       "rewrites": ""
           *     }
           */
          "application/json": components["schemas"]["HTTPGatewayRule"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  queryComponentMonitor: {
    parameters: {
      query?: {
        /** @description Restrict to components with external access. The console reads it as the string `true` or `false`. */
        is_outer?: components["parameters"]["IsOuter"];
      };
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One record per component. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "service_id": "gr3f9c2a",
           *         "service_cname": "web-frontend",
           *         "service_alias": "gr3f9c2a",
           *         "monitors": [
           *           {
           *             "monitor_item": "request_time",
           *             "status": "success",
           *             "data": {
           *               "resultType": "vector",
           *               "result": [
           *                 {
           *                   "value": [
           *                     "1763787600",
           *                     "12.5"
           *                   ]
           *                 }
           *               ]
           *             }
           *           }
           *         ]
           *       },
           *       {
           *         "service_id": "ab7d1e4f",
           *         "service_cname": "mysql",
           *         "service_alias": "ab7d1e4f",
           *         "monitors": null
           *       }
           *     ]
           */
          "application/json": components["schemas"]["ComponentMonitorSerializers"][];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  queryComponentMonitorRange: {
    parameters: {
      query: {
        /** @description Restrict to components with external access. The console reads it as the string `true` or `false`. */
        is_outer?: components["parameters"]["IsOuter"];
        /**
         * @description Start of the range, a Unix timestamp in seconds.
         * @example 1763784000
         */
        start: number;
        /**
         * @description End of the range, a Unix timestamp in seconds, after `start`.
         * @example 1763787600
         */
        end: number;
        /**
         * @description Seconds between two samples; the console takes 60 when it is absent.
         * @example 60
         */
        step?: number;
      };
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One record per component. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "service_id": "gr3f9c2a",
           *         "service_cname": "web-frontend",
           *         "service_alias": "gr3f9c2a",
           *         "monitors": [
           *           {
           *             "monitor_item": "request_time",
           *             "status": "success",
           *             "data": {
           *               "resultType": "matrix",
           *               "result": [
           *                 {
           *                   "value": [
           *                     "1763787540",
           *                     "11.8"
           *                   ]
           *                 },
           *                 {
           *                   "value": [
           *                     "1763787600",
           *                     "12.5"
           *                   ]
           *                 }
           *               ]
           *             }
           *           }
           *         ]
           *       },
           *       {
           *         "service_id": "ab7d1e4f",
           *         "service_cname": "mysql",
           *         "service_alias": "ab7d1e4f",
           *         "monitors": null
           *       }
           *     ]
           */
          "application/json": components["schemas"]["ComponentMonitorSerializers"][];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  listTeamResources: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example [
         *       {
         *         "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
         *         "region_name": "rainbond"
         *       }
         *     ]
         */
        "application/json": components["schemas"]["TenantRegionList"][];
      };
    };
    responses: {
      /** @description The teams' resource statistics. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "total_cpu": 16000,
           *         "total_memory": 65536,
           *         "used_cpu": 6500,
           *         "used_memory": 24576,
           *         "used_cpu_percentage": 40.63,
           *         "used_memory_percentage": 37.5,
           *         "team_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *         "team_name": "q8k2mz5d",
           *         "team_alias": "Shop team"
           *       }
           *     ]
           */
          "application/json": components["schemas"]["TeamAppsResource"][];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  listApps: {
    parameters: {
      query?: {
        /** @description Searches application name and team name. */
        query?: string;
      };
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The applications. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "ID": 12,
           *         "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *         "group_name": "shop",
           *         "region_name": "rainbond",
           *         "is_default": false,
           *         "order_index": 0,
           *         "note": "Online shop",
           *         "username": "alice",
           *         "governance_mode": "KUBERNETES_NATIVE_SERVICE",
           *         "create_time": "2026-10-02T08:15:30Z",
           *         "update_time": "2026-11-20T16:42:05Z",
           *         "app_type": "rainbond",
           *         "app_store_name": null,
           *         "app_store_url": null,
           *         "app_template_name": null,
           *         "version": null,
           *         "logo": null,
           *         "k8s_app": "shop"
           *       }
           *     ]
           */
          "application/json": components["schemas"]["AppBaseInfo"][];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  installApp: {
    parameters: {
      query?: {
        /** @description Whether to build and deploy after installing. The console reads it as the string `true` or `false`. */
        is_deploy?: components["parameters"]["IsDeploy"];
      };
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "market_url": "https://hub.grapps.cn",
         *       "market_domain": "rainbond",
         *       "market_type": "rainstore",
         *       "market_access_key": "STORE_ACCESS_KEY_PLACEHOLDER",
         *       "app_model_id": "9e2c7a1f5b3d4e8a",
         *       "app_model_version": "2.1.0"
         *     }
         */
        "application/json": components["schemas"]["Install"];
      };
    };
    responses: {
      /** @description The installed application and its components. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "enterprise_id": "e3a9c1b7d5f24e6a",
           *       "team_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *       "note": "Online shop",
           *       "ID": 12,
           *       "region_name": "rainbond",
           *       "service_list": [
           *         {
           *           "status": "running",
           *           "access_infos": [
           *             "http://shop.example.org"
           *           ],
           *           "service_id": "gr3f9c2a",
           *           "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *           "service_key": "6c1f8e2d9a4b4c7e",
           *           "service_alias": "gr3f9c2a",
           *           "service_cname": "web-frontend",
           *           "service_region": "rainbond",
           *           "desc": null,
           *           "category": "application",
           *           "version": "1.4.2",
           *           "update_version": 3,
           *           "image": "registry.example.org/shop/web-frontend:1.4.2",
           *           "cmd": null,
           *           "min_node": 2,
           *           "min_cpu": 500,
           *           "container_gpu": 0,
           *           "min_memory": 512,
           *           "extend_method": "stateless",
           *           "code_from": null,
           *           "git_url": null,
           *           "git_project_id": 0,
           *           "code_version": null,
           *           "service_type": "web",
           *           "creater": 1,
           *           "language": null,
           *           "total_memory": 1024,
           *           "is_service": false,
           *           "service_origin": "cloud",
           *           "tenant_service_group_id": 5,
           *           "open_webhooks": false,
           *           "service_source": "market",
           *           "create_status": "complete",
           *           "check_uuid": null,
           *           "check_event_id": null,
           *           "docker_cmd": null,
           *           "server_type": "git",
           *           "is_upgrate": false,
           *           "build_upgrade": true,
           *           "oauth_service_id": null,
           *           "k8s_component_name": "web-frontend"
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["MarketInstall"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
  getComponent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Team id. */
        team_id: components["parameters"]["TeamId"];
        /** @description Region name. */
        region_name: components["parameters"]["RegionName"];
        /** @description Application id, a non-negative integer. */
        app_id: components["parameters"]["AppId"];
        /** @description Component id. */
        service_id: components["parameters"]["ServiceId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The component. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "running",
           *       "access_infos": [
           *         "http://shop.example.org"
           *       ],
           *       "service_id": "gr3f9c2a",
           *       "tenant_id": "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
           *       "service_key": "6c1f8e2d9a4b4c7e",
           *       "service_alias": "gr3f9c2a",
           *       "service_cname": "web-frontend",
           *       "service_region": "rainbond",
           *       "desc": null,
           *       "category": "application",
           *       "version": "1.4.2",
           *       "update_version": 3,
           *       "image": "registry.example.org/shop/web-frontend:1.4.2",
           *       "cmd": null,
           *       "min_node": 2,
           *       "min_cpu": 500,
           *       "container_gpu": 0,
           *       "min_memory": 512,
           *       "extend_method": "stateless",
           *       "code_from": null,
           *       "git_url": null,
           *       "git_project_id": 0,
           *       "code_version": null,
           *       "service_type": "web",
           *       "creater": 1,
           *       "language": null,
           *       "total_memory": 1024,
           *       "is_service": false,
           *       "service_origin": "cloud",
           *       "tenant_service_group_id": 5,
           *       "open_webhooks": false,
           *       "service_source": "market",
           *       "create_status": "complete",
           *       "check_uuid": null,
           *       "check_event_id": null,
           *       "docker_cmd": null,
           *       "server_type": "git",
           *       "is_upgrate": false,
           *       "build_upgrade": true,
           *       "oauth_service_id": null,
           *       "k8s_component_name": "web-frontend"
           *     }
           */
          "application/json": components["schemas"]["ServiceBaseInfo"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      500: components["responses"]["InternalServerError"];
    };
  };
}
