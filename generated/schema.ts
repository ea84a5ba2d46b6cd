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
        /**
         * Open a team in a region
         * @description Opens the team in a region (creates its tenant and namespace there) and answers 201 with the team. Send `region`: the console fails (500) without it. No operation of the API closes a team's region again; deleting the team removes it from all of them. The console does not check that the token's user belongs to the team (finding 24).
         */
        post: operations["openTeamRegion"];
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
        /**
         * Read an HTTP rule of an application
         * @description **An unknown `rule_id` answers 200**, with a record whose strings are all empty and whose numbers are null (`http_rule_id: ""`): check it before using the answer.
         */
        get: operations["getHttpRule"];
        /**
         * Update an HTTP rule
         * @description Changes the domain, path, matches, weight or certificate of a live rule, and so what the outside network reaches. Request bodies spell the header match `domain_header`; the record read back spells it `domain_heander`.
         */
        put: operations["updateHttpRule"];
        post?: never;
        /**
         * Delete an HTTP rule
         * @description Deletes an HTTP gateway rule and answers 200 with the rule as it was. The rule is looked up in the whole team, not only in the application of the path. An unknown id answers 404 with `code` 1404 "domain not found".
         */
        delete: operations["deleteHttpRule"];
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
        /**
         * List the HTTP and TCP rules of an application
         * @description Lists the gateway rules of the application's components: `http` and `tcp`. With `query=http` or `query=tcp` the answer has that member only.
         */
        get: operations["listAppGatewayRules"];
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
        /**
         * Create an application
         * @description Creates an empty application of a team in a region and answers 201 with it. The name must be unique in the team and region (else 400 "app name exist"); `k8s_app`, the application's name in Kubernetes, is made up (`app-` and six hex digits) when left out.
         */
        post: operations["createApp"];
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
        /**
         * Delete a component
         * @description Deletes a component, running or not. With `force=1` a component the region fails to delete is removed from the console anyway. Answers 200 with an empty body; a refusal comes in the console's envelope.
         */
        delete: operations["deleteComponent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/regions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the enterprise's regions
         * @description Lists every region (cluster) of the enterprise, in one bare array. Only an enterprise administrator's key may call it (403 otherwise), but any key can make itself an administrator with `admins.add` (finding 23), so do not rely on this to keep region keys from a key's holder. The records carry the console's client certificate and key for each region (`key_file`, a secret, masked wherever this project shows it).
         */
        get: operations["listRegions"];
        put?: never;
        /**
         * Add a region to the enterprise
         * @description Adds a region (cluster): the console first calls the region's API at `url` (400 when it cannot reach it), then stores the record and answers 201 with it, under an id of its own rather than the `region_id` sent. The first region of an enterprise also gets a team named `default`. No operation of the API removes a region again. Only an enterprise administrator's key may call it (403 otherwise); any key can make itself one (finding 23).
         *
         *     Send `region_id`, `status`, `enterprise_id` and the three certificate fields (`""` for plain HTTP): without them the console answers 400, 404 "enterprise not found" or 500. A region added with empty certificate fields then answers 400 to `regions.get` (finding 10).
         */
        post: operations["addRegion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/grctl/ip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a region's addresses and certificates
         * @description Overwrites eight fields of a region at once: `url`, `wsurl`, `httpdomain`, `tcpdomain` and the three certificate fields from the body's `url`, `ws_url`, `http_domain`, `tcp_domain`, `ssl_ca_cert`, `cert_file`, `key_file`, and **writes `""` into every one the body leaves out**, with no check of the values; the previous values are not kept. It is what `grctl` calls when a cluster's address changes. Any key may call it, not only an enterprise administrator's (finding 23). Answers the console's envelope with `msg_show` "更新成功", or 404 when the region does not exist.
         */
        post: operations["replaceRegionIp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/administrators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the enterprise administrators
         * @description Lists the enterprise administrators, one page at a time; `eid` keeps those of one enterprise (without it, those of every enterprise of the console). A `page` or `page_size` that is not an integer is taken as the default. Any key may call it, not only an administrator's (finding 23).
         */
        get: operations["listAdministrators"];
        put?: never;
        /**
         * Make a user an enterprise administrator
         * @description Makes a user an administrator of an enterprise, and answers 201 with an empty body. **Any key may call it, for any user, its own included: a key that is not an administrator's can make itself one** and so reach everything an administrator can (finding 23). Scope your keys with that in mind. `admins.delete` undoes it.
         */
        post: operations["addAdministrator"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/administrators/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Take a user's administrator rights away
         * @description Removes a user from the enterprise administrators (the user stays) and answers 200 with an empty body. The console refuses the caller's own id and the last administrator (400), and answers 404 for a user who is not an administrator. Any key may call it (finding 23). `admins.add` gives the rights back.
         */
        delete: operations["deleteAdministrator"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description Lists the console's users (of every enterprise), one page at a time, optionally those whose name, email or phone contains `query`. A `page` or `page_size` that is not an integer is taken as the default; a page past the end answers no users and a `total` of 0. Any key may call it (finding 23).
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user
         * @description Creates a user in an enterprise and answers 201 with an empty body (`users.list` with `query` finds its id). An existing name answers 409, an existing email 400 and an existing phone 409. Any key may call it (finding 23).
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/currentuser": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the token's user
         * @description Reads the user the API token belongs to, under `bean` (the console sends no code with it).
         */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a user
         * @description By id or by user name. A user that does not exist answers **500** (`DoesNotExist`), not 404. Any key may call it (finding 23).
         */
        get: operations["getUser"];
        /**
         * Change a user
         * @description Changes a user's email, phone, active flag, shown name or password, and answers 200 with an empty body, **also for a user that does not exist** (then nothing changes; with `password`, 404 with an empty body). Any key may call it, for any user (finding 23).
         */
        put: operations["updateUser"];
        post?: never;
        /**
         * Delete a user
         * @description Deletes a user, with its team memberships and roles (the teams it created stay), and answers 200 with an empty body; 404 with an empty body when there is no such user. Any key may call it (finding 23).
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/users/{user_id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stop every component of the teams a user created
         * @description **A GET that changes things**: stops every component of every team the user created, in every region, with "系统（余额不足）" ("system, balance too low") as the operator, and answers `{"bean": "close success"}`. Nothing guards it (any key may call it, finding 23), so never let a crawler, a prefetch or a retry send it. An id that is not a user answers 500 (`UserNotExistError`). `apps.operate` with `start` starts components again.
         */
        get: operations["closeUserTeamsComponents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/users/{user_id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delete every app of the teams a user created
         * @description **A GET that deletes**: deletes every application of every team the user created, with their components, Kubernetes resources, configuration groups and share records, and answers `{"bean": "delete success"}` (the teams and the user stay). Nothing guards it (any key may call it, finding 23), so never let a crawler, a prefetch or a retry send it.
         */
        get: operations["deleteUserTeamsApps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/users/{user_id}/changepwd": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a user's password
         * @description Sets a new password for the user named by the body's `user_id`: **the console ignores the path's `user_id`** (pass the same id in both). Answers 200 with an empty body, 400 with an empty body when the two passwords differ, and 404 when the user is not in the caller's enterprise. Any key may change any user's password of its enterprise (finding 23); the old one cannot be restored through the API.
         */
        put: operations["changeUserPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/changepwd": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the password of the token's user
         * @description Sets a new password for the user the API token belongs to (the token keeps working). Answers 200 with an empty body, and 400 with an empty body when the two passwords differ. No operation reads a password back, so the old one cannot be restored through the API.
         */
        put: operations["changeOwnPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's teams
         * @description Lists the teams of the enterprise that the token's user belongs to, one page at a time. With `query`, those whose alias contains it, or all of them when the token's user name contains it. A `page` or `page_size` that is not an integer is taken as the default. The records are the console's database rows as they are (finding 43): `creater` is the token's user's name (not the creator's) and `create_time` has a `T`, unlike `teams.get`.
         */
        get: operations["listTeams"];
        put?: never;
        /**
         * Create a team
         * @description Creates a team owned by the token's user, and opens it in `region` when one is given; answers 201 with the team. **`tenant_name` becomes the team's alias**: the console makes the team's name itself (8 random characters, the answer's `tenant_name`), so use the answer's `tenant_id` from then on (finding 46). Any key may call it (finding 23).
         */
        post: operations["createTeam"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        /**
         * Read a team
         * @description By its id only: the team's name answers 404 (code 2002) here, though it works in the team's other paths. The console does not check that the token's user belongs to the team (finding 24).
         */
        get: operations["getTeam"];
        /**
         * Change a team
         * @description Changes a team's alias, active flag, owner or enterprise, and answers 200 with an empty body. Use the team's id: the console writes by the path as an id, so with the team's name it answers 200 and changes nothing. `creater` is written without checking that the user exists (finding 33). The console does not check that the token's user belongs to the team (finding 24).
         */
        put: operations["updateTeam"];
        post?: never;
        /**
         * Delete a team
         * @description Deletes a team, by id or name: first from each region it is opened in (the console refuses while a component of the team still runs there), then its record. Answers 200 with an empty body, 404 when there is no such team. The console does not check that the token's user belongs to the team (finding 24).
         */
        delete: operations["deleteTeam"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a team's resources in a region
         * @description Reads the CPU (millicores) and memory (MB) the team uses in a region and its limits there, as the region reports them (0 where it reports nothing). The team must be opened in the region (409, code 2001, otherwise). The console does not check that the token's user belongs to the team (finding 24).
         */
        get: operations["getTeamRegionResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/certificates": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        /**
         * List a team's certificates
         * @description Lists the team's certificates, one page at a time, without their keys. Unlike the other lists, a `page` or `page_size` that is not an integer answers 500 here. The console does not check that the token's user belongs to the team (finding 24).
         */
        get: operations["listTeamCertificates"];
        put?: never;
        /**
         * Add a certificate to a team
         * @description Stores a certificate and its private key for the team's gateway rules, and answers **200** (not 201) with the stored record, key included. Send all four members: the console does not stop on its own validation, so a missing one fails later (500). The console does not check that the token's user belongs to the team (finding 24).
         */
        post: operations["createTeamCertificate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/certificates/{certificate_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Certificate id, a non-negative integer (the `id` of the certificate list). */
                certificate_id: components["parameters"]["CertificateId"];
            };
            cookie?: never;
        };
        /**
         * Read a certificate with its private key
         * @description **The console looks the certificate up by its id alone**: any team's path reaches any team's certificate, and it does not check that the token's user belongs to the team either (findings 24, 25). 404 when there is no certificate of that id. The answer holds the private key, a secret, masked wherever this project shows it.
         */
        get: operations["getTeamCertificate"];
        /**
         * Replace a certificate
         * @description Replaces a certificate, its key, name and type, checked as when adding one, and answers 200 with the stored record, key included; the gateway rules that use it are updated too. Send all four members (the console fails, 500, without one). The console does not check that the token's user belongs to the team (finding 24).
         */
        put: operations["updateTeamCertificate"];
        post?: never;
        /**
         * Delete a certificate
         * @description Deletes a certificate and answers 200 with an empty body; 404 when there is none of that id, 400 while a gateway rule still uses it. Like `certificates.get`, it finds the certificate by id alone, whatever the team in the path (finding 25).
         */
        delete: operations["deleteTeamCertificate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/monitor/resource_over_view": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the enterprise's traffic as a Sankey diagram
         * @description Reads the enterprise's busiest domains (at most 20) with their requests, flowing to their application, team and region: a Sankey diagram, sent as an array holding one `{nodes, links}` (finding 42). Any key may call it (finding 23).
         */
        get: operations["getResourceOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/monitor/service_overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Count a region's running, abnormal and stopped components
         * @description Counts the components of a region by state, as the region reports them. `region_name` is required: without it, or with a name that is not a region's, the console answers 500 (finding 34). Any key may call it (finding 23).
         */
        get: operations["getServiceOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/monitor/component_memory_overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the enterprise's memory by component as a Sankey diagram
         * @description Reads the memory (MB) allocated to the enterprise's components (the 30 largest), flowing to their team (by alias) and region: a Sankey diagram, sent as an array holding one `{nodes, links}` (finding 42). Any key may call it (finding 23).
         */
        get: operations["getComponentMemoryOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/monitor/performance_overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the resources used across the enterprise
         * @description Sums the CPU, memory and storage used, the ready nodes and the components over the enterprise's usable regions; a region that does not answer counts for nothing. Any key may call it (finding 23).
         */
        get: operations["getPerformanceOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/monitor/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run an instant PromQL query in a region
         * @description Runs a PromQL expression on the region's Prometheus at the current time and sends its answer as it is (404 when `region_name` is not a region's). Any key may call it, for any region of the console (finding 23).
         */
        get: operations["queryMonitor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/monitor/query_range": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run a PromQL query over a time range in a region
         * @description Runs a PromQL expression on the region's Prometheus from `start` to `end`, one sample every `step` seconds, and sends its answer as it is (404 when `region_name` is not a region's). Send all three: the console passes a missing one on as `None`, which Prometheus refuses. Prometheus returns at most 11,000 points per series. Any key may call it (finding 23).
         */
        get: operations["queryMonitorRange"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/monitor/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find Prometheus series in a region (fails on this console)
         * @description Meant to list the series that match a selector, from the region's Prometheus. **This console answers 500 to every request** (`'RegionInvokeApi' object has no attribute 'get_query_series'`, finding 37); the schema is Prometheus's series answer, which the console would pass on.
         */
        get: operations["queryMonitorSeries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/instances/monitor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List instances with their usage (fails on this console)
         * @description Meant to list the instances (pods) of the enterprise's components with their status and usage. **This console answers 500 to every request** (`'EnterpriseServices' object has no attribute 'get_instances_monitor'`, finding 37); the schema is the one the console declares.
         */
        get: operations["listInstanceMonitors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/events/{event_id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the logs of an event
         * @description Reads the log lines of an event (a build, a deployment or another operation; `components.listEvents` gives their ids) from the region. An unknown event, or a region that fails, gives an empty list rather than an error. The team must be opened in the region (409, code 2001, otherwise). The console does not check that the token's user belongs to the team (finding 24).
         */
        get: operations["getEventLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the enterprise's counts
         * @description Counts the enterprise's teams, and the nodes and running instances its regions report. **`apps` and `components` count those of every enterprise of the console**, not only the caller's. `visual_monitor` gives the visual monitoring's address. Any key may call it (finding 23).
         */
        get: operations["getEnterpriseOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a team's counts in a region
         * @description Reads the team's CPU and memory in a region, with its number of applications and components there (not the figures of `teams.regionResource`, whatever the console's own documentation says, finding 42). The team must be opened in the region (409, code 2001, otherwise). The console does not check that the token's user belongs to the team (finding 24).
         */
        get: operations["getTeamRegionOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/close": {
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
        get?: never;
        put?: never;
        /**
         * Stop components of a team in a region
         * @description Stops the components named in `service_ids` among those of the team in the region, whatever their application; ids of other teams or regions are ignored. **Without `service_ids` (or with an empty list) it stops every component of the team in the region.** Answers 200 with an empty body. `apps.operate` with `start` starts them again.
         */
        post: operations["closeTeamApps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}": {
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
         * Read an application
         * @description Reads an application with its component counts, its status (`running`, `part_running` or `closed`, from the region's view of its components) and the memory (`used_momory`, spelled so) and CPU its components are given.
         */
        get: operations["getApp"];
        put?: never;
        post?: never;
        /**
         * Delete an application
         * @description Deletes an application and its components. Refused (400 "There are running components under the current application") while any component is neither closed nor undeployed: stop them first, or use `apps.deleteWithResources`, which does not check. With `force=1` a component the region fails to delete is removed anyway. Answers 200 with an empty body.
         */
        delete: operations["deleteApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/operations": {
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
         * Start, stop, upgrade or deploy the components of an application
         * @description Starts, stops, upgrades (rolling update) or deploys (builds, then updates) components of an application: those in `service_ids`, or every component of the application when it is left out or empty. There is no `restart` (400). Unlike the other team operations, this one checks the caller's team permissions: each action needs its own (owners have all), else 403. Answers `{"msg": "操作成功"}` once the region took the request.
         */
        post: operations["operateApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/copy": {
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
         * List the components of an application as a copy would take them
         * @description Lists the components of an application with their build source, for `apps.copy`. **Fails on this console for ordinary applications**: it validates its own component data, so an image component whose registry user name, password or `docker_cmd` is empty makes it answer 400 ValidationError naming fields the caller never sent. The build source of an image or source-code component carries the registry or repository password.
         */
        get: operations["listAppCopyComponents"];
        put?: never;
        /**
         * Copy components of an application into another application
         * @description Copies the components named in `services` into the application `target_app_id` of the team `target_team_name` (one the caller belongs to) in the region `target_region_name`, optionally changing each copy's build version and environment (`change`), and answers 200 with the new components. A third-party component without endpoints cannot be copied (400).
         */
        post: operations["copyApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/app/{app_id}/delete": {
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
        post?: never;
        /**
         * Delete an application with everything in it, running or not
         * @description Deletes an application's components (**running ones too**: unlike `apps.delete`, nothing is checked), its Kubernetes resources, configuration groups and share records, then the application. Answers 200 with a message in the console's envelope.
         */
        delete: operations["deleteAppWithResources"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/upgrade": {
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
         * List the store applications installed in an application and their upgrades
         * @description Lists each store application (app model) installed in the application, its current version and the versions it can be upgraded to. An application with nothing installed from a store answers `[]`.
         */
        get: operations["listAppUpgrades"];
        put?: never;
        /**
         * Upgrade store applications installed in an application
         * @description Upgrades each store application named in `update_versions` to the version given, then answers the list of `apps.listUpgrades`. There is no way back through the API: the components take the new version's settings.
         */
        post: operations["upgradeApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/app/{app_id}/helm_chart": {
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
         * Check a Helm chart against the region
         * @description Asks the region to check the chart `chart_name` of the Helm repository `repo_name` at `version` for the team, and answers what the region says, inside the console's envelope. The three query parameters are required (400 otherwise). The console cannot describe this operation in its own document (finding 36).
         */
        get: operations["checkHelmChart"];
        /**
         * Update the authorization policy of an application
         * @description Meant to set the application's authorization policy (`operating_mode`). **Changes nothing on this console**: it checks that `operating_mode` is given (400 otherwise, at most 32 characters) and answers 200.
         */
        put: operations["updateHelmChart"];
        /**
         * Install a Helm chart into an application
         * @description **Fails on this console whatever the request**: meant to install a chart of a Helm repository, it records a local-store application for the chart (which the API cannot remove) and then answers 500 without installing anything. `repo_name`, `chart_name` and `version` are required (400 otherwise).
         */
        post: operations["installHelmChart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services": {
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
         * List the components of an application
         * @description Lists the components of an application, each with its status (from the region) and access addresses.
         */
        get: operations["listComponents"];
        put?: never;
        /**
         * Create a component from an image
         * @description Creates a component that runs a container image and, unless `is_deploy` is `false`, builds and starts it. **The application is taken from the body's `group_id`, not from the path**: send the path's application id there too (without it the console answers 500). Answers 200 with the new component's id inside the console's envelope. A missing or longer `service_cname` answers 412. A failure after the component's record is made (the region, or the build) answers a bare HTML 500 (the console puts the exception itself into the body), and the half-made component stays listed.
         */
        post: operations["createComponentFromImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/third-components": {
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
         * Create a third-party component
         * @description Creates a component that stands for a service running outside the cluster, reached at `endpoints` (`endpoints_type: static`), or whose endpoints are registered later through the console (`endpoints_type: api`). Answers 200 with the console's whole record of the component; for `api` it also carries `url` and `api_service_key`, **a secret** that lets anyone register endpoints for it (masked wherever this project shows it). An address that is not an IP or a domain, a loopback or unspecified address, a repeated address, or a domain mixed with other addresses answers 400.
         */
        post: operations["createThirdPartyComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/telescopic/vertical": {
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
        get?: never;
        put?: never;
        /**
         * Change the memory, CPU and GPU of a component
         * @description Gives each instance of a component `new_memory` MB of memory and `new_cpu` millicores of CPU and `new_gpu` of GPU memory; the component restarts with them. `new_cpu` and `new_gpu` must be sent, `null` to leave them to the console. Answers 200 with an empty body.
         */
        post: operations["scaleComponentVertical"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/telescopic/horizontal": {
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
        get?: never;
        put?: never;
        /**
         * Change the number of instances of a component
         * @description Sets how many instances run, `new_node`, from 1 to 100. Answers 200 with an empty body.
         */
        post: operations["scaleComponentHorizontal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/envs": {
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
        get?: never;
        /**
         * Set environment variables of a component
         * @description Sets each variable of `envs` by name: changes the value (and note) of one the component has, adds the others. Variables not named are left alone. Answers 200 with every variable of the component, values as stored. There is no operation to list or delete variables in this API, so an added variable or a replaced value cannot be undone through it. The console checks the whole answer with the request's rules: a component already holding a variable with an empty value makes it answer 400 after the change was made.
         */
        put: operations["updateComponentEnvs"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/build": {
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
        get?: never;
        put?: never;
        /**
         * Build and deploy a component
         * @description Builds the component from its source and deploys the result, for CI/CD. With `repo_url` the component's source changes first: its image (an image component) or its repository and `branch` (a source-code component), and `username`/`password` replace its stored credentials. `build_type` and `server_type` are accepted and ignored. Answers 200 with the build's event id (`components.listEvents`, `events.logs`); 507 "构建异常" when the region does not report the build as started; 400 for a component whose creation is not complete.
         */
        post: operations["buildComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/docker-image-change": {
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
        get?: never;
        /**
         * Change the image of an image component
         * @description Records a new image for the component; nothing is built or restarted (`components.build` does that). The component's version becomes the image's tag: give one (`nginx:1.26`), since an image without `:` becomes its own version and `nginx:` becomes `nginx:latest`. The console does not check the body: `{}` answers 200 and changes nothing.
         */
        put: operations["changeComponentImage"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/volumes": {
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
        get?: never;
        put?: never;
        /**
         * Add a volume to a component
         * @description Mounts a new volume (persistent storage, or a configuration file with `volume_type: config-file` and `file_content`) at `volume_path` in the component, and answers 200 with the volume's record inside the console's envelope. The console may record another type than the one asked (`share-file` became `local-path` on the measured console). There is no operation to remove a volume in this API. A name with other characters than letters, digits, `-`, `_` and `.` answers 400 "volume name illegal".
         */
        post: operations["addComponentVolume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/events": {
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
         * List the events of a component
         * @description Lists a component's events (builds, deployments, scaling, ...) a page at a time, as the region records them. `events.logs` reads an event's log. A `page` or `page_size` that is not an integer answers 500.
         */
        get: operations["listComponentEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps_port": {
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
         * List the internal ports of a team's components
         * @description Lists the ports whose internal service is open, across every application of the team, each with the Kubernetes service name and namespace that other components reach it by. Answers inside the console's envelope.
         */
        get: operations["listTeamInnerPorts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/domains/{rule_id}": {
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
         * Update an HTTP rule (through the gateway rules path)
         * @description Changes an HTTP gateway rule, as `gateway.updateHttpRule` does: TCP rules cannot be changed here. The members sent replace the rule's; `service_id` (a component of the team) is required. **`certificate_id` and `auto_ssl_config` left out are reset** (to 0 and null: the rule loses its certificate), so send them again to keep them. By the console's code, sending `domain_header` or `whether_open` makes it fail (500: the record has no such fields). The rule is found by its id alone. Answers 200 with the rule after the change (without `ID` and `rule_extensions`).
         */
        put: operations["updateGatewayRule"];
        post?: never;
        /**
         * Delete an HTTP rule (through the gateway rules path)
         * @description Deletes an HTTP gateway rule, as `gateway.deleteHttpRule` does, and answers 200 with the rule as it was. **TCP rules cannot be deleted through this API**: a TCP rule's id answers 404 with `code` 1404 "domain not found". The rule is looked up in the whole team, not only in the application of the path.
         */
        delete: operations["deleteGatewayRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/app_model": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or update a template of the local store
         * @description Saves an application template (app model) version into the enterprise's local store, from `apps`, the list of component templates the console's own sharing produces. The template's id follows from `app_name` alone: the same name updates the same template, and a `version` it has is overwritten ("版本已更新"), else added ("版本已创建"). Answers 200 with the message and the template's id, for `appModels.deploy`, `appModels.smartDeploy` and `grayReleases.create`. The console does not check `apps`: a template missing what the installer needs fails only at install time. Any key may call it; nothing saved here can be removed through this API. A missing member answers 400 `{"msg": "参数不完整"}`.
         */
        post: operations["createOrUpdateAppModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/app-model/deploy": {
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
        get?: never;
        put?: never;
        /**
         * Install or upgrade a template in an application, or deploy a Docker Compose file
         * @description With `deploy_type: ram`, installs the local-store template `group_key` at `group_version` into the application `app_id` and deploys it (`action: deploy`), or upgrades the application's installed template to that version (`action: upgrade`, 404 when there is nothing to upgrade). With `deploy_type: docker-compose`, creates the application `group_name` from `yaml_content` and deploys its services: the console waits for the region's check of the file before it answers. Any other `deploy_type` or `action` answers 400. The template is not checked when saved, so a template missing what the installer needs fails here, with 500.
         */
        post: operations["deployAppModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/app-model/smart-deploy": {
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
        get?: never;
        put?: never;
        /**
         * Install a template's latest version into an application, or upgrade it
         * @description Brings the application named `app_name` (created when the team has none of that name) to the latest version of the template `template_id` of the local store (or of the cloud market `market_name`): installs it when the application does not have it (`action: install`), upgrades it when a newer version exists (`upgrade`, which cannot be undone through the API), or does nothing (`skip`). Answers 200 with what it did inside the console's envelope; 404 for an unknown template; a failed install or upgrade answers 500 in the envelope.
         */
        post: operations["smartDeployAppModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/app-model/import": {
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
        get?: never;
        put?: never;
        /**
         * Begin importing app packages into the local store
         * @description Gives the caller an import: their unfinished one if they have one in the enterprise, else a new one. Answers its `event_id`, status and the address to upload packages to (`upload_url`, on the console), inside the console's envelope; `region_name` is the region's alias. Upload the packages there, then call `appModels.startImport`. When the console finds no region for a new import, the answer holds only `region_name: ""`. Sends no body.
         */
        post: operations["createAppImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/app-model/import/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        /**
         * Read an import of app packages
         * @description Reads an import and asks the region how it goes; once the region reports success, the console saves the imported templates into the local store and the answer's `data.list` holds them. Answers the console's envelope whole: the import in `data.bean`, the templates in `data.list`. An unknown `event_id` answers 400 "import_record not found".
         */
        get: operations["getAppImport"];
        put?: never;
        /**
         * Import uploaded app packages into the local store
         * @description Asks the region to import the packages named in `file_name` (comma-separated) of the import into the enterprise's local store; `appModels.getImport` follows it. The templates it adds cannot be removed through this API. Without `file_name` it answers 400 "file name is null".
         */
        post: operations["startAppImport"];
        /**
         * Abandon an import of app packages
         * @description Asks the region to drop the import's files and deletes the import's record. Answers 200 inside the console's envelope, an unknown `event_id` too; a failure answers 500 in the envelope.
         */
        delete: operations["deleteAppImport"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/app-model/import/{event_id}/dir": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        /**
         * List the app packages uploaded for an import
         * @description Lists the app packages the region holds in the import's directory, by file name, for `appModels.startImport`. Answers inside the console's envelope. An unknown `event_id` answers 400 "import_record not found".
         */
        get: operations["listAppImportDir"];
        put?: never;
        /**
         * Create an import directory for several packages
         * @description Asks the region for a new directory to upload packages into, and records a new import for it (status `created_dir`), answered inside the console's envelope. The new import has an `event_id` of its own: the path's is not used.
         */
        post: operations["createAppImportDir"];
        /**
         * Delete an import directory
         * @description Meant to delete an import's directory and record. **Fails on this console whatever the request**: with the required query parameter `event_id` it answers 500 (TypeError), without it 400.
         */
        delete: operations["deleteAppImportDir"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/app-model/import/{event_id}/chart": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Install an uploaded Helm chart into an application
         * @description Turns the chart `name`-`version`.tgz uploaded to the import into a template of the local store (which the API cannot remove), then installs it into the application `app_id` (`action: deploy`) or upgrades the application's copy (`action: upgrade`, 404 when there is nothing to upgrade). Answers the console's envelope whole. **A chart the region cannot find answers HTTP 200 with `code` 400 inside**: check `code`. A missing member answers 400.
         */
        post: operations["installChartFromImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/gray-release": {
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
         * Start a gray release of an application
         * @description Installs the template `template_id` into the application beside its running components and sends `gray_ratio` percent of the traffic of the application's domain `domain_name` to the new ones. `grayReleases.updateRatio` moves the share, `grayReleases.rollback` ends it. Answers 200 with the two components and their weights inside the console's envelope. Every failure comes in the envelope, **a ratio outside 0-100 included, as 500**.
         */
        post: operations["createGrayRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/gray-ratio": {
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
        /**
         * Change the share of traffic of a gray release
         * @description Sends `gray_ratio` percent of the domain's traffic to the new version of the application's active gray release of `template_id`. **`gray_ratio: 100` completes the release: the original components are deleted.** Answers 200 with the components and their weights inside the console's envelope; 404 when the application has no active release of that template. Every failure comes in the envelope.
         */
        put: operations["updateGrayRatio"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/gray-rollback": {
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
         * Roll a gray release back
         * @description Sends all of the domain's traffic back to the original components and deletes the new version's components of the application's active gray release of `template_id`. Answers 200 with how many components were deleted inside the console's envelope; 404 when there is no active release of that template.
         */
        post: operations["rollbackGrayRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi/v1/gray-releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the gray releases of the whole platform
         * @description Lists every gray release of every team, most recently updated first, optionally only those of one `status` (`active`, `completed`, `cancelled`). Any key may call it. Answers inside the console's envelope.
         */
        get: operations["listGrayReleases"];
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
                [key: string]: string[] | Record<string, unknown>;
            };
            /** @description Class of the error, e.g. `AuthenticationFailed`, `ValidationError`. */
            error_type?: string;
            /** @description A server stack trace some deployments add. The client drops it. */
            error_trace?: string;
            /** @description The envelope's data (`bean` and `list`, both empty) of an error the console raised itself. */
            data?: Record<string, unknown>;
            /** @description The exception's class details of an unhandled error (`args`, `message`, `module`). */
            error_details?: Record<string, unknown>;
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
            action: "open_outer" | "close_outer" | "open_inner" | "close_inner" | "change_protocol" | "change_port_alias" | "only_open_outer";
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
        /** @description One region (cluster) of the enterprise, as the region list gives it. The certificate fields are the ones the console uses to reach the region's API; `key_file` is its client key. */
        RegionSummary: {
            /** @description Region id. */
            region_id?: string;
            /** @description Region name. */
            region_name: string;
            /** @description Region alias. */
            region_alias: string;
            /** @description The region's API address. */
            url: string;
            /** @description The region's websocket address. */
            wsurl?: string;
            /** @description Root domain for HTTP access to applications. */
            httpdomain?: string;
            /** @description Address for TCP access to applications. */
            tcpdomain?: string;
            /** @description Status: `0` editing, `1` enabled, `2` disabled, `3` under maintenance. */
            status: string;
            /** @description Description. */
            desc: string;
            /** @description `private` or `public`. */
            scope: string;
            /** @description The CA certificate of the region's API. */
            ssl_ca_cert?: string | null;
            /** @description The console's client certificate for the region's API. */
            cert_file?: string | null;
            /** @description The console's client key for the region's API. Secret material. */
            key_file?: string | null;
        };
        /** @description A region to add. The console checks it with the rules of its region records, not with the schema its own documentation shows: `region_id`, `status` and `enterprise_id` must be sent, and the three certificate fields must be strings (`""` for a region reached over plain HTTP). */
        AddRegionBody: {
            /** @description Any id not used by another region: the console requires it, then replaces it with an id of its own (the answer's `region_id`). */
            region_id: string;
            /** @description Region name, unique in the console (an existing name answers 400). */
            region_name: string;
            /** @description Region alias. */
            region_alias: string;
            /** @description The region's API address, e.g. `https://10.0.0.11:8443`. The console calls its `/v2/show` before adding. */
            url: string;
            /** @description The region's websocket address, e.g. `wss://10.0.0.11:6060`. */
            wsurl: string;
            /** @description Root domain for HTTP access to applications. */
            httpdomain: string;
            /** @description Address for TCP access to applications; it must begin with an IPv4 address. */
            tcpdomain: string;
            /**
             * @description `private` (the console's default) or `public`.
             * @enum {string}
             */
            scope?: "private" | "public";
            /** @description The CA certificate of the region's API, or `""`. */
            ssl_ca_cert: string;
            /** @description The console's client certificate for the region's API, or `""`. */
            cert_file: string;
            /** @description The console's client key for the region's API, or `""`. Secret material. */
            key_file: string;
            /** @description The region's token, if it has one. Secret material. */
            token?: string | null;
            /**
             * @description Status: `0` editing, `1` enabled, `2` disabled, `3` under maintenance.
             * @enum {string}
             */
            status: "0" | "1" | "2" | "3";
            /** @description Description. */
            desc?: string;
            /** @description The enterprise to add the region to; one that does not exist answers 404 "enterprise not found". */
            enterprise_id: string;
        };
        /** @description A region (cluster) as the console stores it, token and client key included. */
        RegionRecord: {
            /** @description Region id, made by the console. */
            region_id: string;
            /** @description Region name. */
            region_name: string;
            /** @description Region alias. */
            region_alias: string;
            /** @description The region's API address. */
            url: string;
            /** @description The region's token. Secret material. */
            token: string | null;
            /** @description The region's websocket address. */
            wsurl: string;
            /** @description Root domain for HTTP access to applications. */
            httpdomain: string;
            /** @description Address for TCP access to applications. */
            tcpdomain: string;
            /** @description `private` or `public`. */
            scope: string;
            /** @description The CA certificate of the region's API. */
            ssl_ca_cert: string | null;
            /** @description The console's client certificate for the region's API. */
            cert_file: string | null;
            /** @description The console's client key for the region's API. Secret material. */
            key_file: string | null;
            /** @description Status: `0` editing, `1` enabled, `2` disabled, `3` under maintenance. */
            status: string;
            /** @description Description. */
            desc: string;
            /** @description The enterprise the region belongs to. */
            enterprise_id: string | null;
        };
        /** @description The region and its new addresses. Every member left out is written as `""`: send all of them, the ones to keep with their current values. Note the names: `ws_url`, `http_domain` and `tcp_domain` (the region record's `wsurl`, `httpdomain`, `tcpdomain`). */
        ReplaceRegionAddressesBody: {
            /** @description The region to change (404 when there is none of that name). */
            region_name: string;
            /** @description The region's API address. */
            url?: string;
            /** @description The region's websocket address. */
            ws_url?: string;
            /** @description Root domain for HTTP access to applications. */
            http_domain?: string;
            /** @description Address for TCP access to applications. */
            tcp_domain?: string;
            /** @description The CA certificate of the region's API. */
            ssl_ca_cert?: string;
            /** @description The console's client certificate for the region's API. */
            cert_file?: string;
            /** @description The console's client key for the region's API. Secret material. */
            key_file?: string;
        };
        /** @description The console's envelope carrying only a message: `code`, `msg`, `msg_show`, and `data` with an empty `bean` and `list`. `code` is the outcome: 200 on success, though some operations put a failure's code here (400) under HTTP 200. */
        ConsoleMessage: {
            /** @description The outcome, 200 on success. */
            code: number;
            /** @description Message in English. */
            msg: string;
            /** @description Message for people. */
            msg_show: string;
            data: {
                /** @description Empty. */
                bean: Record<string, unknown>;
                /** @description Empty. */
                list: unknown[];
            };
        };
        /** @description A user of the enterprise. */
        UserInfo: {
            /** @description User id. */
            user_id: number;
            /** @description Email address. */
            email?: string | null;
            /** @description User name (the login name). */
            nick_name?: string | null;
            /** @description Phone number. */
            phone?: string | null;
            /** @description Whether the user is active. */
            is_active?: boolean;
            /** @description Where the user came from (the console's spelling). */
            origion?: string | null;
            /** @description When the user was created, as `2026-11-28 09:50:37.882573` (a space, no offset). */
            create_time?: string;
            /** @description The address the user registered from. */
            client_ip?: string | null;
            /** @description The user's enterprise. */
            enterprise_id?: string | null;
        };
        /** @description One page of users. */
        UserList: {
            /** @description The users of this page. */
            users: components["schemas"]["UserInfo"][];
            /** @description Number of users across all pages. */
            total: number;
        };
        /** @description The user to make an administrator of the enterprise. */
        AddAdministratorBody: {
            /** @description The user's id (404 when there is no such user). */
            user_id: string;
            /** @description The enterprise's id (400 when there is no such enterprise). */
            eid: string;
        };
        /** @description A user to create. The console asks for `email` or `phone`, but it builds the password from `email`, so without `email` it fails (500): send it. */
        CreateUserBody: {
            /** @description User name (the login name), unique in the enterprise (an existing one answers 409). */
            nick_name: string;
            /** @description Password, 8 to 16 characters. */
            password: string;
            /** @description The user's enterprise. */
            enterprise_id: string;
            /** @description Email address, unique (an existing one answers 400). */
            email: string;
            /** @description Phone number, unique (an existing one answers 409). */
            phone?: string;
            /**
             * @description Whether the user is active.
             * @default true
             */
            is_active?: boolean;
            /** @description Where the user came from (the console's spelling). The console does not store it. */
            origion?: string;
        };
        /** @description The user the API token belongs to. */
        CurrentUser: {
            /** @description User id. */
            user_id: number;
            /** @description Email address. */
            email: string | null;
            /** @description User name (the login name). */
            nick_name: string | null;
            /** @description Name shown to people. */
            real_name: string | null;
            /** @description Phone number. */
            phone: string | null;
            /** @description Whether the user is active. */
            is_active: boolean;
            /** @description Where the user came from (the console's spelling). */
            origion: string | null;
            /** @description The user's enterprise. */
            enterprise_id: string | null;
        };
        /** @description What to change of a user; members left out (or `null`) stay as they are. `password` replaces the user's password, which no operation reads back. */
        UpdateUserBody: {
            /** @description A new password, 8 to 16 characters. */
            password?: string;
            /** @description Email address. */
            email?: string;
            /** @description Phone number (`""` clears it). */
            phone?: string;
            /** @description Whether the user is active. */
            is_active?: boolean | null;
            /** @description Name shown to people. */
            real_name?: string;
            /** @description Accepted, but the console does not change a user's enterprise. */
            enterprise_id?: string;
        };
        /** @description A message alone under `bean`, `{"bean": "..."}`, with no code. */
        BeanMessage: {
            /** @description The message. */
            bean: string;
        };
        /** @description The new password, 8 to 16 characters. */
        password: string;
        /** @description The same password again; when the two differ the console answers 400 with an empty body. */
        password1: string;
        /** @description Whose password to change, and the new password twice. The user changed is the one named by `user_id` here, not the one in the path. */
        ChangeUserPasswordBody: {
            /** @description The user whose password changes; one outside the caller's enterprise answers 404. */
            user_id: number;
            password: components["schemas"]["password"];
            password1: components["schemas"]["password1"];
        };
        /** @description The new password, twice. */
        NewPasswordBody: {
            /** @description The new password, 8 to 16 characters. */
            password: string;
            /** @description The same password again; when the two differ the console answers 400 with an empty body. */
            password1: string;
        };
        /** @description A role the caller holds in a team. */
        RoleInfo: {
            /** @description Role id. */
            role_id: number | string;
            /** @description Role name. */
            role_name: string;
        };
        /** @description A team as the team list gives it (the console sends its database row as it is): note `ID`, `creater` as a user name and `create_time` with a `T`, where `teams.get` sends the creator's id and a space. */
        TeamRecord: {
            /** @description The team's row number in the console's database. */
            ID: number;
            /** @description Team id. */
            tenant_id: string;
            /** @description Team name (the console makes it). */
            tenant_name: string;
            /** @description Team alias, the name people see. */
            tenant_alias: string | null;
            /** @description Whether the team is active. */
            is_active: boolean;
            /** @description The team's enterprise. */
            enterprise_id: string | null;
            /** @description When the team was created, as `2026-11-28T09:50:37.978030` (no offset). */
            create_time: string;
            /** @description The user name of the token's user, whoever created the team: the console joins the caller's record here (the member's spelling is the console's). */
            creater: string | null;
            /** @description The caller's roles in the team. */
            role_infos: components["schemas"]["RoleInfo"][];
        };
        /** @description One page of the caller's teams. */
        TeamList: {
            /** @description The teams of this page. */
            tenants: components["schemas"]["TeamRecord"][];
            /** @description Number of teams across all pages. */
            total: number;
            /** @description This page's number. */
            page: number;
            /** @description Teams per page. */
            page_size: number;
        };
        /** @description The team to create. */
        CreateTeamBody: {
            /** @description The name people see: the console stores it as the team's alias (`tenant_alias`) and makes the team's name itself. */
            tenant_name: string;
            /** @description A region to open the team in at once (404, code 3000, when there is none of that name). */
            region?: string;
        };
        /** @description A team as stored, after creating it or opening a region for it. */
        TeamBaseInfo: {
            /** @description Team id. */
            tenant_id: string;
            /** @description Team name, made by the console (8 characters). */
            tenant_name: string;
            /** @description Unused, `""`. */
            region: string;
            /** @description Whether the team is active. */
            is_active: boolean;
            /** @description When the team was created, as `2026-11-28 10:05:55.841130`. */
            create_time: string;
            /** @description The user id of the team's creator (the console's spelling). */
            creater: number;
            /** @description Memory limit in MB (0 for teams made through this API). */
            limit_memory: number;
            /** @description When the team last changed. */
            update_time: string;
            /** @description Team alias, the name people see. */
            tenant_alias: string | null;
            /** @description The team's enterprise. */
            enterprise_id: string | null;
        };
        /** @description A team. */
        TeamInfo: {
            /** @description Team id. */
            tenant_id: string;
            /** @description Team name (the console makes it). */
            tenant_name: string;
            /** @description Team alias, the name people see. */
            tenant_alias: string | null;
            /** @description The team's enterprise. */
            enterprise_id: string | null;
            /** @description Whether the team is active. */
            is_active?: boolean;
            /** @description When the team was created, as `2026-11-28 09:50:37.978030` (a space, no offset). */
            create_time?: string;
            /** @description The user id of the team's creator, as a string (the console's spelling). */
            creater?: string;
        };
        /** @description What to change of a team; members left out stay as they are. The console writes the members to the team's record as they are, so do not send others: `region`, which the console's own documentation lists, is not a field of a team and fails (500). */
        UpdateTeamBody: {
            /** @description Team alias, the name people see. */
            tenant_alias?: string;
            /** @description Whether the team is active. */
            is_active?: boolean;
            /** @description The user id of the team's new owner. The console does not check that the user exists. */
            creater?: number;
            /** @description Moves the team to this enterprise (400 when there is no such enterprise). */
            enterprise_id?: string;
        };
        /** @description The region to open the team in. */
        OpenTeamRegionBody: {
            /** @description Region name (404, code 3000, when there is none). The console's rules call it optional, but without it the console fails (500). */
            region: string;
        };
        /** @description A certificate of the team, as the certificate list gives it (without the key or the certificate itself). */
        CertificateSummary: {
            /** @description Whether the certificate has expired. */
            has_expired: boolean;
            /** @description The domain names and addresses it is for (its subject alternative names and common name). */
            issued_to: (string | null)[];
            /** @description Certificate name, unique in the team. */
            alias: string;
            /** @description Certificate type, as it was given. */
            certificate_type: string;
            /** @description When it expires, in the console's local time (the console's spelling). */
            end_data: string;
            /** @description Certificate id. */
            id: number;
            /** @description "Let's Encrypt签发" (issued by Rainbond's Let's Encrypt) or "第三方签发" (by a third party). */
            issued_by: string;
        };
        /** @description One page of a team's certificates. */
        CertificateList: {
            /** @description The certificates of this page. */
            list: components["schemas"]["CertificateSummary"][];
            /** @description This page's number. */
            page: number;
            /** @description Certificates per page. */
            page_size: number;
            /** @description Number of certificates across all pages. */
            total: number;
        };
        /** @description A certificate and its key, both PEM. The console checks that the certificate parses and has not expired (400 "the certificate is invalid" or "has been expired") and that the key parses and matches it (400). */
        CertificateBody: {
            /** @description Certificate name, unique in the team (412 when another certificate of the team has it). */
            alias: string;
            /** @description The private key, PEM. Secret material. */
            private_key: string;
            /** @description The certificate, PEM (a chain may follow it). One longer than 6,144 characters is stored, but the console then answers 400: it checks its own answer, which carries the certificate base64-encoded, against 8,192 characters. */
            certificate: string;
            /** @description Certificate type, stored as given; the console's own pages send `服务端证书` (server certificate). `gateway` fails on this console (500): it asks a region for a TLS secret, and the Open API gives it none. */
            certificate_type: string;
        };
        /** @description A certificate with its private key. */
        Certificate: {
            /** @description Certificate name, unique in the team. */
            alias: string;
            /** @description The private key (PEM). Secret material. */
            private_key: string;
            /** @description The certificate: PEM when read with `certificates.get`; in the answers of create and update, the stored form, the PEM base64-encoded. */
            certificate: string;
            /** @description Certificate type, as it was given. */
            certificate_type: string;
            /** @description Certificate id. */
            id: number;
        };
        /** @description A Sankey diagram: `nodes` at levels from 0 (the leftmost) and `links` between them, each with its value. */
        ResourceGraph: {
            /** @description The nodes, each named by `id`, once. */
            nodes: {
                /** @description The node's name. */
                id?: string;
                /** @description Its column, from 0. */
                level?: number;
            }[];
            /** @description The links, from `source` to `target`. */
            links: {
                /** @description The `id` of the node the link leaves. */
                source?: string;
                /** @description The `id` of the node the link reaches. */
                target?: string;
                /** @description The link's weight. */
                value?: number;
            }[];
        };
        /** @description How many of a region's components run, are abnormal, or are stopped. */
        ServiceOverview: {
            /** @description Components the region reports abnormal. */
            abnormal_service_num: number;
            /** @description The other components of the region (neither running nor abnormal). */
            closed_service_num: number;
            /** @description Components the region reports running. */
            started_service_num: number;
        };
        /** @description The resources used across the enterprise's usable regions, summed from what each region reports. */
        PerformanceOverview: {
            /** @description CPU used, as the regions report it. */
            cpu_use_sum: number;
            /** @description Memory used, as the regions report it. */
            memory_use_sum: number;
            /** @description Storage used, as the regions report it. */
            disk_use_sum: number;
            /** @description Ready nodes. */
            node_number: number;
            /** @description Components. */
            service_number: number;
        };
        /** @description Prometheus's answer, as the region's Prometheus gave it: `status` `success` with `data`, or `error` with `errorType` and `error`. */
        PrometheusAnswer: {
            /** @description `success` or `error`. */
            status: string;
            /** @description The result. */
            data?: {
                /** @description `vector` or `scalar` (instant), `matrix` (range), or `string`. */
                resultType?: string;
                /** @description One entry per series. */
                result?: {
                    /** @description The series' labels. */
                    metric?: {
                        [key: string]: string;
                    };
                    /** @description The instant sample, `[time, value]`, the time in seconds (a number), the value a string. */
                    value?: (number | string)[];
                    /** @description The samples of a range, each `[time, value]`. */
                    values?: (number | string)[][];
                }[];
            };
            /** @description The kind of error. */
            errorType?: string;
            /** @description The error. */
            error?: string;
        };
        /** @description One instance (pod) of a component, with its usage. */
        InstanceMonitor: {
            /** @description The instance's status. */
            instance_status: string;
            /** @description The team's alias. */
            team_alias: string;
            /** @description The application's name. */
            app_name: string;
            /** @description The component's name. */
            component_name: string;
            /** @description Storage used. */
            disk_usage: number;
            /** @description Memory used. */
            memory_usage: number;
            /** @description CPU used. */
            cpu_usage: number;
        };
        /** @description The log lines of an event. */
        EventLogs: {
            /** @description The lines, oldest first; empty for an unknown event or when the region does not answer. */
            logs?: {
                /** @description The line. */
                message?: string | null;
                /** @description When it was written, e.g. `2026-11-28T10:00:00+08:00`. */
                time?: string | null;
                /** @description The same, a Unix timestamp in seconds. */
                utime?: number | null;
            }[] | null;
        };
        /** @description Counts of the enterprise, and where its visual monitoring lives. */
        EnterpriseOverview: {
            /** @description The enterprise's teams. */
            teams: number;
            /** @description Applications, of every enterprise of the console. */
            apps: number;
            /** @description Components, of every enterprise of the console. */
            components: number;
            /** @description Running instances (pods), as the regions report them. */
            instances: number;
            /** @description Nodes, as the regions report them. */
            nodes: number;
            /** @description The visual monitoring's address, set by the console's environment. */
            visual_monitor: {
                /** @description Always `true`. */
                enable: boolean;
                /** @description The home address and the suffixes of its pages. */
                value: {
                    /** @description The home address. */
                    home_url: string;
                    /** @description The path of the cluster page. */
                    cluster_monitor_suffix: string;
                    /** @description The path of the node page. */
                    node_monitor_suffix: string;
                    /** @description The path of the component page. */
                    component_monitor_suffix: string;
                    /** @description The path of the service page. */
                    slo_monitor_suffix: string;
                };
            };
        };
        /** @description A team's resources and counts in a region. */
        TeamRegionOverview: {
            /** @description The team's CPU limit in the region, in millicores (0 when the region reports none). */
            total_cpu: number;
            /** @description The team's memory limit in the region, in MB. */
            total_memory: number;
            /** @description CPU used, in millicores. */
            used_cpu: number;
            /** @description Memory used, in MB. */
            used_memory: number;
            /** @description The team's applications in the region. */
            app_nums: number;
            /** @description The team's components in the region. */
            component_nums: number;
        };
        /** @description Body of `createApp`. */
        CreateAppBody: {
            /**
             * @description The application's name, unique in the team and region: letters, digits, Chinese characters, `_`, `-` and `.`.
             * @example shop
             */
            app_name: string;
            /**
             * @description A note.
             * @default
             */
            app_note?: string;
            /** @description The application's name in Kubernetes, unique in the team and region. Left out or empty, the console makes one up (`app-` and six hex digits). */
            k8s_app?: string;
        };
        /** @description An application with its component counts and status, as `getApp` sends it (the fields of `AppBaseInfo` but `ID`, plus the counts, the status and the team's name). */
        AppInfo: {
            /** @description Enterprise id. */
            enterprise_id: string;
            /** @description Number of components. */
            service_count: number;
            /** @description Number of running components. */
            running_service_count: number;
            /** @description Memory given to the components, in MB (the console spells the field so). */
            used_momory: number;
            /** @description CPU given to the components, in millicores. */
            used_cpu: number;
            /** @description Application id. */
            app_id: number;
            /** @description The team's name. */
            team_name: string;
            /**
             * @description `running` (every component), `part_running`, or `closed` (none running).
             * @enum {string}
             */
            status: "running" | "part_running" | "closed";
            /** @description Team id. */
            tenant_id: string;
            /** @description Application name. */
            group_name: string;
            /** @description Region name. */
            region_name: string;
            /** @description Whether it is the team's default application. */
            is_default?: boolean;
            /** @description Ordering. */
            order_index?: number;
            /** @description Note. */
            note?: string | null;
            /** @description The creator's username. */
            username?: string | null;
            /** @description Governance mode. */
            governance_mode?: string | null;
            /** @description Creation time, the console's local time without a UTC offset (e.g. `2026-11-28T09:51:05.749916`). */
            create_time: string;
            /** @description Update time, the console's local time without a UTC offset. */
            update_time: string;
            /** @description Application type (`rainbond`, `helm`). */
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
        /** @description Body of `operateApp`. */
        OperateAppBody: {
            /**
             * @description `start`, `stop`, `upgrade` (a rolling update with the current build) or `deploy` (build, then update).
             * @enum {string}
             */
            action: "stop" | "start" | "upgrade" | "deploy";
            /** @description The components to act on; left out or empty, every component of the application. The console passes the ids on without checking that they belong to the application. */
            service_ids?: string[];
        };
        /** @description A bare message, `{"msg": ...}`. */
        Message: {
            /** @description Message for people. */
            msg: string;
        };
        /** @description A component as `listAppCopyComponents` lists it. */
        AppCopyComponent: {
            /** @description Where the component is built from. Its members depend on `service_source`: an image (`docker_image`) adds `docker_cmd`, `image`, `user_name`, `password`; a store application (`market`) adds `rain_app_name`; source code (`source_code`) adds `code_version`, `git_url`, `full_name`, `service_id`, `oauth_service_id`, `user_name`, `password`. */
            build_source?: {
                /** @description Version. */
                version?: string | null;
                /** @description Language. */
                language?: string | null;
                /** @description Build type. */
                code_from?: string | null;
                /** @description Source: `docker_image`, `market`, `source_code`. */
                service_source?: string | null;
                /** @description Image start command. */
                docker_cmd?: string | null;
                /** @description Image. */
                image?: string | null;
                /** @description Store application name. */
                rain_app_name?: string | null;
                /** @description Code version. */
                code_version?: string | null;
                /** @description Repository address. */
                git_url?: string | null;
                /** @description Repository full name. */
                full_name?: string | null;
                /** @description Component id. */
                service_id?: string | null;
                /** @description OAuth service id. */
                oauth_service_id?: number | null;
                /** @description Registry or repository user name. */
                user_name?: string | null;
                /** @description Registry or repository password. */
                password?: string | null;
            };
            /** @description Update time. */
            update_time?: string | null;
            /** @description Build version. */
            deploy_version?: string | null;
            /** @description Creation status. */
            create_status?: string | null;
            /** @description Component alias. */
            service_alias?: string | null;
            /** @description Component name. */
            service_cname?: string | null;
            /** @description Version. */
            version?: string | null;
            /** @description Component type. */
            service_type?: string | null;
            /** @description Component id. */
            service_id?: string | null;
            /** @description Application name. */
            app_name?: string | null;
            /** @description Memory in MB, as text. */
            min_memory?: string | null;
        };
        /** @description Body of `copyApp`. */
        CopyAppBody: {
            /** @description The components to copy. */
            services: {
                /** @description Component id. */
                service_id: string;
                /** @description What to change in the copy. */
                change?: {
                    build_source?: {
                        /** @description The build version of the copy. */
                        version?: string | null;
                    };
                    /** @description Environment variables of the copy, name to value. */
                    envs?: {
                        [key: string]: unknown;
                    };
                };
            }[];
            /** @description The team to copy into (by name), one the caller belongs to. */
            target_team_name: string;
            /** @description The region to copy into. */
            target_region_name: string;
            /** @description The application to copy into; it must be the target team's. */
            target_app_id: number;
        };
        /** @description The components a copy made. */
        CopiedComponents: {
            services: components["schemas"]["ServiceBaseInfo"][];
        };
        /** @description A store application installed in an application, and its upgrades. */
        AppUpgradeInfo: {
            /** @description The store's name. */
            market_name: string;
            /** @description The store application's id. */
            app_model_id: string;
            /** @description The store application's name. */
            app_model_name: string;
            /** @description The version installed. */
            current_version: string;
            /** @description Enterprise id. */
            enterprise_id: string;
            /** @description Whether a newer version exists. */
            can_upgrade: boolean;
            /** @description The versions it can be upgraded to. */
            upgrade_versions: string[];
            /** @description Where the store application comes from. */
            source: string;
        };
        /** @description Body of `upgradeApp`. */
        UpgradeAppBody: {
            /** @description The store applications to upgrade. */
            update_versions: {
                /** @description The store's name (null for the local store). */
                market_name: string | null;
                /** @description The store application's id. */
                app_model_id: string;
                /** @description The version to upgrade to. */
                app_model_version: string;
            }[];
        };
        /** @description The region's check of a Helm chart, as the region answers it (the console passes it on unchanged). */
        HelmChartCheck: {
            [key: string]: unknown;
        };
        /** @description A chart of a Helm repository. */
        HelmChartBody: {
            /** @description The Helm repository's name, as the console knows it. */
            repo_name: string;
            /** @description The chart. */
            chart_name: string;
            /** @description The chart's version. */
            version: string;
            /** @description Values to override, `key=value` pairs separated by commas. */
            overrides?: string;
        };
        /** @description Body of `createComponentFromImage`. */
        CreateImageComponentBody: {
            /** @description The application to create the component in: the console takes it from here, not from the path. Send the path's `app_id`. */
            group_id: number;
            /** @description The component's name. */
            service_cname: string;
            /** @description The image, e.g. `nginx:1.25`. */
            image: string;
            /** @description User name of the image's registry, when it needs one. */
            user_name?: string;
            /** @description Password of the image's registry, when it needs one. */
            password?: string;
            /** @description The component's name in Kubernetes, unique in the application (400 otherwise); left out, its alias (`gr` and six characters). */
            k8s_component_name?: string;
            /**
             * @description Whether to build and start it once created.
             * @default true
             */
            is_deploy?: boolean;
        };
        /** @description The id of a component just created. */
        NewComponent: {
            /** @description Component id. */
            service_id: string;
        };
        /** @description Body of `createThirdPartyComponent`. */
        CreateThirdPartyComponentBody: {
            /**
             * @description `static`: the addresses are `endpoints`; `api`: they are registered later through the console.
             * @enum {string}
             */
            endpoints_type: "static" | "api";
            /** @description With `static`, the service's addresses: `ip:port`, or one domain (`host:port`, optionally with `http://` or `https://`), each at most once; not loopback nor 0.0.0.0. With `api`, send `[]`. */
            endpoints: string[];
            /** @description The component's name. */
            component_name: string;
        };
        /** @description A third-party component just created: the console's whole record of it, and for `endpoints_type: api` the key and address through which its endpoints are registered. */
        ThirdPartyComponent: {
            /** @description Record id. */
            ID?: number;
            /** @description Component id. */
            service_id: string;
            /** @description Team id. */
            tenant_id: string;
            /** @description Component key. */
            service_key: string;
            /** @description Component alias (`gr` and six characters). */
            service_alias: string;
            /** @description Component name. */
            service_cname: string;
            /** @description Region name. */
            service_region: string;
            /** @description Description. */
            desc?: string | null;
            /** @description Category. */
            category: string;
            /** @description Port (unused for third-party components). */
            service_port?: number;
            /** @description Web component flag. */
            is_web_service?: boolean;
            /** @description Version. */
            version: string;
            /** @description Internal release count. */
            update_version?: number;
            /** @description Image (`third_party`). */
            image: string;
            /** @description Start arguments. */
            cmd?: string | null;
            /** @description Instances. */
            min_node?: number;
            /** @description CPU, in millicores. */
            min_cpu?: number;
            /** @description GPU memory. */
            container_gpu?: number;
            /** @description Memory, in MB. */
            min_memory?: number;
            /** @description Settings. */
            setting?: string | null;
            /** @description Deployment type. */
            extend_method?: string;
            /** @description Environment (legacy field). */
            env?: string | null;
            /** @description Inner port (legacy field). */
            inner_port?: number;
            /** @description Mount path (legacy field). */
            volume_mount_path?: string | null;
            /** @description Host path. */
            host_path?: string | null;
            /** @description Build version. */
            deploy_version?: string | null;
            /** @description Code source. */
            code_from?: string | null;
            /** @description Code repository. */
            git_url?: string | null;
            /** @description Creation time, the console's local time (`2026-11-28 10:07:53`). */
            create_time?: string;
            /** @description GitLab project id. */
            git_project_id?: number;
            /** @description Code upload flag. */
            is_code_upload?: boolean;
            /** @description Code version. */
            code_version?: string | null;
            /** @description Component type. */
            service_type?: string | null;
            /** @description Creator's user id. */
            creater?: number;
            /** @description Code language. */
            language?: string | null;
            /** @description Source build strategy. */
            build_strategy?: string | null;
            /** @description Service protocol. */
            protocol?: string;
            /** @description Memory in use, in MB. */
            total_memory?: number;
            /** @description Inner component flag. */
            is_service?: boolean;
            /** @description Image namespace. */
            namespace?: string;
            /** @description Volume sharing type. */
            volume_type?: string;
            /** @description Port type. */
            port_type?: string;
            /** @description How it was created. */
            service_origin?: string;
            /** @description Store installation group id. */
            tenant_service_group_id?: number;
            /** @description Expiry time. */
            expired_time?: string | null;
            /** @description Automatic deployment by webhook. */
            open_webhooks?: boolean;
            /** @description Source (`third_party`). */
            service_source?: string | null;
            /** @description Creation status (`creating`, `complete`). */
            create_status?: string | null;
            /** @description Update time, the console's local time. */
            update_time?: string;
            /** @description Check id. */
            check_uuid?: string | null;
            /** @description Check event id. */
            check_event_id?: string | null;
            /** @description Image command. */
            docker_cmd?: string | null;
            /** @description Webhook verification secret. */
            secret?: string | null;
            /** @description Source repository type. */
            server_type?: string;
            /** @description Whether it can be updated (spelled so). */
            is_upgrate?: boolean;
            /** @description Whether a build upgrades it. */
            build_upgrade?: boolean;
            /** @description Name used by the region. */
            service_name?: string;
            /** @description OAuth service id. */
            oauth_service_id?: number | null;
            /** @description Repository full name. */
            git_full_name?: string | null;
            /** @description Name in Kubernetes. */
            k8s_component_name: string;
            /** @description Job strategy. */
            job_strategy?: string | null;
            /** @description CPU architecture. */
            arch?: string | null;
            /** @description Dockerfile path. */
            dockerfile?: string | null;
            /** @description With `endpoints_type: api` only: the key that authorizes registering endpoints at `url`. A secret, masked wherever this project shows it. */
            api_service_key?: string;
            /** @description With `endpoints_type` `api` only, the console's address at which the component's endpoints are registered. */
            url?: string;
        };
        /** @description An environment variable of a component. */
        ComponentEnv: {
            /** @description The variable's name. */
            name: string;
            /** @description The variable's value. */
            value: string;
            /**
             * @description A note.
             * @default
             */
            note?: string;
            /**
             * @description Whether it may be changed later (taken when the variable is added).
             * @default true
             */
            is_change?: boolean;
            /**
             * @description `inner`, the component's own variable, or `outer`, a connection variable offered to the components that depend on it (taken when the variable is added).
             * @default inner
             */
            scope?: string;
        };
        /** @description Environment variables of a component. */
        ComponentEnvs: {
            envs: components["schemas"]["ComponentEnv"][];
        };
        /** @description Body of `buildComponent`; every member is optional. */
        BuildComponentBody: {
            /**
             * @description Accepted and ignored by this console.
             * @enum {string|null}
             */
            build_type?: "source_code" | "docker_image" | "market" | null;
            /**
             * @description Accepted and ignored by this console.
             * @enum {string|null}
             */
            server_type?: "svn" | "git" | "oss" | null;
            /**
             * @description With `repo_url`, the branch or tag of a source-code component.
             * @default master
             */
            branch?: string | null;
            /** @description The new source, built from now on: an image for an image component, a repository address for a source-code one. */
            repo_url?: string | null;
            /** @description With `repo_url`, the user name of the registry or repository. */
            username?: string | null;
            /** @description With `repo_url`, the password of the registry or repository. */
            password?: string | null;
        };
        /** @description Body of `addComponentVolume`. */
        AddVolumeBody: {
            /** @description The volume's name. */
            volume_name: string;
            /** @description Where it is mounted in the container. */
            volume_path: string;
            /** @description Size in GB (0 for a configuration file). */
            volume_capacity: number;
            /** @description The storage type, e.g. `share-file`, `local`, `memoryfs`, or `config-file` for a configuration file. */
            volume_type: string;
            /** @description With `config-file`, the file's content. */
            file_content?: string;
            /** @description The storage driver's name. */
            volume_provider_name?: string;
            /** @description Read and write mode, `RWO`, `ROX` or `RWX`. */
            access_mode?: string;
            /** @description Sharing policy. */
            share_policy?: string;
            /** @description Backup policy (recorded as `backup_policy`). */
            back_policy?: string;
            /** @description Reclaim policy. */
            reclaim_policy?: string;
            /**
             * @description Whether the volume may grow.
             * @default false
             */
            allow_expansion?: boolean;
            /** @description File permissions, written as an octal number in decimal digits (`755`): at most three digits of 0 to 7, else 400. */
            mode?: number;
        };
        /** @description A volume of a component, as the console records it. */
        ComponentVolume: {
            /** @description The volume's id. */
            ID: number;
            /** @description Component id. */
            service_id: string;
            /** @description The component's category. */
            category?: string;
            /** @description Path on the node. */
            host_path?: string;
            /** @description The storage type recorded. */
            volume_type: string;
            /** @description Where it is mounted in the container. */
            volume_path: string;
            /** @description The volume's name. */
            volume_name: string;
            /** @description Size. */
            volume_capacity?: number;
            /** @description The storage driver's name. */
            volume_provider_name?: string | null;
            /** @description Read and write mode. */
            access_mode?: string | null;
            /** @description Sharing policy. */
            share_policy?: string | null;
            /** @description Backup policy. */
            backup_policy?: string | null;
            /** @description Reclaim policy. */
            reclaim_policy?: string | null;
            /** @description Whether the volume may grow. */
            allow_expansion?: boolean | null;
            /** @description File permissions. */
            mode?: number | null;
        };
        /** @description An event of a component, as the region records it (every member a string). */
        ComponentEvent: {
            /** @description Event id. */
            event_id: string;
            /** @description Who started it. */
            user_name?: string;
            /** @description What it was, e.g. `build-service`. */
            opt_type?: string;
            /** @description Kind of target (`service` for a component). */
            target?: string;
            /** @description The target's id. */
            target_id?: string;
            /** @description As the region sends it (may be unrelated to the component). */
            service_id?: string;
            /** @description Status, e.g. `success`, `failure`. */
            status?: string;
            /** @description Final status, e.g. `complete`, or empty while running. */
            final_status?: string;
            /** @description The request that started it. */
            request_body?: string;
            /** @description Message. */
            message?: string;
            /** @description Creation time. */
            create_time?: string;
            /** @description Start time. */
            start_time?: string;
            /** @description End time. */
            end_time?: string;
            /** @description Synchronisation type, as the region sends it. */
            syn_type?: string;
            /** @description Team id (may be empty). */
            tenant_id?: string;
        };
        /** @description A page of a component's events. */
        ComponentEventsPage: {
            /** @description The page. */
            page: number;
            /** @description Events per page. */
            page_size: number;
            /** @description Events in all. */
            total: number;
            events: components["schemas"]["ComponentEvent"][];
        };
        /** @description A team's Kubernetes namespace and the ports of its components open to internal service. */
        TeamInnerPorts: {
            /** @description The team's namespace. */
            namespace: string;
            ports: {
                /** @description Container port. */
                port: number;
                /** @description The Kubernetes service that exposes it. */
                service_name: string;
                /** @description The team's namespace. */
                namespace: string;
                /** @description The component's name (null for a component outside this region). */
                component_name?: string | null;
            }[];
        };
        /** @description What `getHttpRule` answers for a rule id the application does not have: the rule's fields, every string empty (`http_rule_id` among them), every number null, every flag false. */
        UnknownHttpRule: {
            /**
             * @description Empty.
             * @constant
             */
            http_rule_id: "";
            region_id?: string;
            tenant_id?: string;
            service_id?: string;
            service_name?: string;
            domain_name?: string;
            container_port?: null;
            protocol?: string;
            certificate_id?: null;
            domain_type?: string;
            service_alias?: string;
            is_senior?: boolean;
            domain_path?: string;
            domain_cookie?: string;
            domain_heander?: string;
            type?: null;
            the_weight?: null;
            is_outer_service?: boolean;
            auto_ssl?: boolean;
            auto_ssl_config?: string | null;
            path_rewrite?: boolean;
            rewrites?: string;
        };
        /** @description Body of `createOrUpdateAppModel`. */
        AppModelBody: {
            /** @description The template's name; it also decides the template's id. */
            app_name: string;
            /** @description The component templates, as the console's own application sharing writes them (`service_key`, `service_cname`, `image`, `port_map_list`, `service_env_map_list`, ...), or a JSON text of that list. Not checked when saved. */
            apps: Record<string, unknown>[] | string;
            /** @description The version to create or overwrite. */
            version: string;
            /**
             * @description Notes on the version.
             * @default
             */
            app_version_info?: string;
            /**
             * @description CPU architecture of the template.
             * @default amd64
             */
            arch?: string;
        };
        /** @description Body of `deployAppModel`. */
        DeployAppModelBody: {
            /**
             * @description `ram` (a template of the local store) or `docker-compose`.
             * @enum {string}
             */
            deploy_type: "ram" | "docker-compose";
            /**
             * @description With `ram`, `deploy` (install) or `upgrade`. With `docker-compose`, not used (send `deploy`).
             * @enum {string}
             */
            action: "deploy" | "upgrade";
            /** @description With `ram`, the application to install into or upgrade. */
            app_id?: number;
            /** @description With `ram`, the template's id. */
            group_key?: string;
            /** @description With `ram`, the template's version. */
            group_version?: string;
            /** @description With `docker-compose` (required there), the name of the application to create. */
            group_name?: string;
            /** @description With `docker-compose`, a note on the application. */
            group_note?: string;
            /** @description With `docker-compose`, the application's name in Kubernetes: send one, the console answers 500 without it. */
            k8s_app?: string;
            /** @description With `docker-compose` (required there), the Compose file. */
            yaml_content?: string;
            /** @description With `docker-compose`, the user name of the images' registry. */
            user_name?: string;
            /** @description With `docker-compose`, the password of the images' registry. */
            password?: string;
        };
        /** @description What `smartDeployAppModel` did. */
        SmartDeployResult: {
            /**
             * @description `install`, `upgrade`, or `skip` (already at the latest version).
             * @enum {string}
             */
            action: "install" | "upgrade" | "skip";
            /** @description The template's id. */
            template_id: string;
            /** @description With `install`, the application's id. */
            app_id?: number;
            /** @description With `install`, the application's name. */
            app_name?: string;
            /** @description With `install` and `upgrade`, the version now installed. */
            template_version?: string;
            /** @description With `upgrade` and `skip`, the version installed before. */
            current_version?: string;
            /** @description With `skip`, the latest version. */
            latest_version?: string;
            /** @description With `upgrade`, the upgrade record's id. */
            upgrade_record_id?: number;
        };
        /** @description An import of app packages, waiting for them. */
        AppImportUpload: {
            /** @description The import's status, e.g. `uploading`. */
            status?: string | null;
            /** @description The import's directory in the region (empty until known). */
            source_dir?: string | null;
            /** @description The import's id, for the other import operations. */
            event_id?: string;
            /** @description Where to upload the packages (a path on the console). */
            upload_url?: string;
            /** @description The alias of the import's region; empty when the console found no region. */
            region_name: string;
        };
        /** @description An import of app packages, as the console records it. */
        AppImportRecord: {
            /** @description Record id. */
            ID: number;
            /** @description The import's id. */
            event_id: string | null;
            /** @description Its status, e.g. `uploading`, `created_dir`, `importing`, `success`, `failed`. */
            status: string | null;
            /** @description Where the templates go (`enterprise`). */
            scope?: string | null;
            /** @description The packages' format. */
            format?: string | null;
            /** @description The import's directory in the region. */
            source_dir?: string | null;
            /** @description Creation time, the console's local time. */
            create_time?: string | null;
            /** @description Update time, the console's local time. */
            update_time?: string | null;
            /** @description The importing team. */
            team_name?: string | null;
            /** @description The region's name. */
            region?: string | null;
            /** @description Who started it. */
            user_name?: string | null;
            /** @description Enterprise id. */
            enterprise_id?: string | null;
        };
        /** @description The console's envelope around an import: the import in `data.bean`, and in `data.list` the templates imported once the region reported success (empty before). */
        AppImportStatus: {
            /** @description 200. */
            code: number;
            /** @description Message in English. */
            msg: string;
            /** @description Message for people. */
            msg_show: string;
            data: {
                bean: components["schemas"]["AppImportRecord"];
                /** @description The imported templates, as the region describes them. */
                list: Record<string, unknown>[];
            };
        };
        /** @description A gray release's two components and how the domain's traffic is shared between them. */
        GrayReleaseState: {
            /** @description Application id. */
            app_id: number;
            /** @description Application name. */
            app_name: string;
            /** @description The original component. */
            original_service_id: string;
            /** @description The original component's name. */
            original_service_cname: string;
            /** @description The original component's share of the traffic. */
            original_weight: number;
            /** @description The new version's component. */
            new_service_id: string;
            /** @description The new version's component's name. */
            new_service_cname: string;
            /** @description The new version's share of the traffic. */
            new_weight: number;
            /** @description The domain whose traffic is shared. */
            domain_name: string;
            /** @description Percent of the traffic for the new version. */
            gray_ratio: number;
        };
        /** @description A gray release, as `listGrayReleases` lists it. */
        GrayRelease: {
            /** @description Record id. */
            id: number;
            /** @description Application id. */
            app_id: number;
            /** @description The team's id. */
            team_id?: string;
            /** @description Application name. */
            app_name: string;
            /** @description The template released. */
            template_id: string;
            /** @description The template's name. */
            template_name?: string | null;
            /** @description The version released. */
            template_version?: string | null;
            /** @description The domain whose traffic is shared. */
            domain_name: string;
            /** @description Percent of the traffic for the new version. */
            gray_ratio: number;
            /** @description `active`, `completed` or `cancelled`. */
            status: string;
            /** @description Which new component stands beside which original one. */
            service_mappings: {
                /** @description The original component. */
                original_service_id?: string;
                /** @description Its name. */
                original_service_cname?: string;
                /** @description Its alias. */
                original_service_alias?: string;
                /** @description The new version's component. */
                gray_service_id?: string;
                /** @description Its name. */
                gray_service_cname?: string;
                /** @description Its alias. */
                gray_service_alias?: string;
            }[];
            /** @description Creation time, the console's local time (`2026-11-28 10:20:00`), or empty. */
            create_time: string;
            /** @description Update time, the console's local time, or empty. */
            update_time: string;
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
        /** @description No certificate of that id: the console's envelope, its text in `msg_show` and `msg` null. */
        CertificateNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": 404,
                 *       "msg": null,
                 *       "msg_show": "证书不存在",
                 *       "data": {
                 *         "bean": {},
                 *         "list": []
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description The HTTP status (404). */
                    code?: number;
                    /** @description Null here. */
                    msg?: string | null;
                    /** @description Message for people. */
                    msg_show?: string;
                    /** @description The envelope's data (`bean` and `list`, both empty). */
                    data?: Record<string, unknown>;
                };
            };
        };
        /** @description The region did not report the build as started (`code` 507, "构建异常", inside the console's envelope). */
        BuildFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": 507,
                 *       "msg": "构建异常",
                 *       "msg_show": "构建异常"
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
        /** @description Page number, from 1 (default 1). */
        Page: string;
        /** @description Items per page (default 10). */
        PageSize: string;
        /** @description User id, a non-negative integer (anything else answers 500). */
        NumericUserId: number;
        /** @description User id. */
        UserId: string;
        /** @description Certificate id, a non-negative integer (the `id` of the certificate list). */
        CertificateId: number;
        /** @description The region (its name) whose figures or Prometheus to read. */
        MonitorRegionName: string;
        /** @description A PromQL expression. The console puts it into the region's URL without encoding it again, so an expression with `+`, `&`, `#` or `%` reaches Prometheus changed (a `+` as a space): keep to expressions without them. */
        PromQuery: string;
        /** @description Event id (an import's, or a build's or other operation's). */
        EventId: string;
        /** @description `1` to delete even when the region fails to delete (the console then retries and removes its own records); `0`, the default, stops at the region's refusal. Anything but an integer answers 400 "force value error". */
        Force: 0 | 1;
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
    openTeamRegion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "region": "rainbond"
                 *     }
                 */
                "application/json": components["schemas"]["OpenTeamRegionBody"];
            };
        };
        responses: {
            /** @description The team. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenant_id": "8acb9f59b77c40979839a0d30f54af66",
                     *       "tenant_name": "fkc8b13s",
                     *       "region": "",
                     *       "is_active": true,
                     *       "create_time": "2026-11-28 10:05:44.798293",
                     *       "creater": 2,
                     *       "limit_memory": 0,
                     *       "update_time": "2026-11-28 10:05:44.798354",
                     *       "tenant_alias": "breadth-userteam",
                     *       "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                     *     }
                     */
                    "application/json": components["schemas"]["TeamBaseInfo"];
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
    getHttpRule: {
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
        requestBody?: never;
        responses: {
            /** @description The rule, or the empty record for an unknown id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ID": 6,
                     *       "rule_extensions": [],
                     *       "http_rule_id": "58642dcfaa50c9e62ec096d98a2a0cb8",
                     *       "region_id": "5a1e0c9b8d7f4e3a2b1c0d9e8f7a6b5c",
                     *       "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "service_id": "638d9a032f4bd7f8123670617ed55507",
                     *       "service_name": "grd55507",
                     *       "domain_name": "shop.example.org",
                     *       "container_port": 80,
                     *       "protocol": "http",
                     *       "certificate_id": 0,
                     *       "domain_type": "www",
                     *       "service_alias": "web",
                     *       "is_senior": false,
                     *       "domain_path": "/",
                     *       "domain_cookie": "",
                     *       "domain_heander": "",
                     *       "type": 1,
                     *       "the_weight": 100,
                     *       "is_outer_service": true,
                     *       "auto_ssl": false,
                     *       "auto_ssl_config": null,
                     *       "path_rewrite": false,
                     *       "rewrites": "[]"
                     *     }
                     */
                    "application/json": components["schemas"]["HTTPGatewayRule"] | components["schemas"]["UnknownHttpRule"];
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
    deleteHttpRule: {
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
        requestBody?: never;
        responses: {
            /** @description The deleted rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "rule_extensions": [],
                     *       "http_rule_id": "58642dcfaa50c9e62ec096d98a2a0cb8",
                     *       "region_id": "5a1e0c9b8d7f4e3a2b1c0d9e8f7a6b5c",
                     *       "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "service_id": "638d9a032f4bd7f8123670617ed55507",
                     *       "service_name": "grd55507",
                     *       "domain_name": "shop.example.org",
                     *       "container_port": 80,
                     *       "protocol": "http",
                     *       "certificate_id": 0,
                     *       "domain_type": "www",
                     *       "service_alias": "web",
                     *       "is_senior": true,
                     *       "domain_path": "/v2",
                     *       "domain_cookie": "",
                     *       "domain_heander": "",
                     *       "type": 1,
                     *       "the_weight": 100,
                     *       "is_outer_service": true,
                     *       "auto_ssl": false,
                     *       "auto_ssl_config": null,
                     *       "path_rewrite": false,
                     *       "rewrites": "[]"
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
    listAppGatewayRules: {
        parameters: {
            query?: {
                /** @description `http` or `tcp` for one kind of rule only; left out, both. */
                query?: "http" | "tcp";
            };
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
        requestBody?: never;
        responses: {
            /** @description The rules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "http": [
                     *         {
                     *           "ID": 7,
                     *           "rule_extensions": [],
                     *           "http_rule_id": "e8e3a3c6d8c413cd0a1f5bf9db0d0375",
                     *           "region_id": "5a1e0c9b8d7f4e3a2b1c0d9e8f7a6b5c",
                     *           "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *           "service_id": "638d9a032f4bd7f8123670617ed55507",
                     *           "service_name": "grd55507",
                     *           "domain_name": "shop.example.org",
                     *           "container_port": 80,
                     *           "protocol": "http",
                     *           "certificate_id": 0,
                     *           "domain_type": "www",
                     *           "service_alias": "web",
                     *           "is_senior": false,
                     *           "domain_path": "/",
                     *           "domain_cookie": "",
                     *           "domain_heander": "",
                     *           "type": 1,
                     *           "the_weight": 100,
                     *           "is_outer_service": true,
                     *           "auto_ssl": false,
                     *           "auto_ssl_config": null,
                     *           "path_rewrite": false,
                     *           "rewrites": "[]"
                     *         }
                     *       ],
                     *       "tcp": [
                     *         {
                     *           "ID": 3,
                     *           "tcp_rule_id": "a48db0365f9ef0de0373a10cd7c482d1",
                     *           "region_id": "5a1e0c9b8d7f4e3a2b1c0d9e8f7a6b5c",
                     *           "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *           "service_id": "638d9a032f4bd7f8123670617ed55507",
                     *           "service_name": "grd55507",
                     *           "end_point": "127.0.0.1:30123",
                     *           "protocol": "udp",
                     *           "container_port": 9001,
                     *           "service_alias": "web",
                     *           "type": 0,
                     *           "rule_extensions": "",
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
    createApp: {
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
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "app_name": "shop",
                 *       "app_note": "Online shop"
                 *     }
                 */
                "application/json": components["schemas"]["CreateAppBody"];
            };
        };
        responses: {
            /** @description The application created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ID": 2,
                     *       "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "group_name": "shop",
                     *       "region_name": "rainbond",
                     *       "is_default": false,
                     *       "order_index": 0,
                     *       "note": "Online shop",
                     *       "username": "admin",
                     *       "governance_mode": "KUBERNETES_NATIVE_SERVICE",
                     *       "create_time": "2026-11-28T10:07:52Z",
                     *       "update_time": "2026-11-28T10:07:52Z",
                     *       "app_type": "rainbond",
                     *       "app_store_name": "",
                     *       "app_store_url": "",
                     *       "app_template_name": "",
                     *       "version": "",
                     *       "logo": "",
                     *       "k8s_app": "app-ecafe4"
                     *     }
                     */
                    "application/json": components["schemas"]["AppBaseInfo"];
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
    deleteComponent: {
        parameters: {
            query?: {
                /** @description `1` to delete even when the region fails to delete (the console then retries and removes its own records); `0`, the default, stops at the region's refusal. Anything but an integer answers 400 "force value error". */
                force?: components["parameters"]["Force"];
            };
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
            /** @description Deleted (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    listRegions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The regions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "region_id": "5a1e0c9b8d7f4e3a2b1c0d9e8f7a6b5c",
                     *         "region_name": "rainbond",
                     *         "region_alias": "Built-in",
                     *         "url": "http://127.0.0.1:18888",
                     *         "status": "1",
                     *         "desc": "local stand-in region (plain HTTP)",
                     *         "scope": "private",
                     *         "ssl_ca_cert": null,
                     *         "cert_file": null,
                     *         "key_file": null
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["RegionSummary"][];
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
    addRegion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "region_id": "breadth0region0id0000000000000001",
                 *       "region_name": "breadth-region",
                 *       "region_alias": "Breadth",
                 *       "url": "http://127.0.0.1:18888",
                 *       "wsurl": "ws://127.0.0.1:6060",
                 *       "httpdomain": "breadth.example.local",
                 *       "tcpdomain": "127.0.0.1",
                 *       "scope": "private",
                 *       "desc": "breadth test region",
                 *       "status": "1",
                 *       "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60",
                 *       "ssl_ca_cert": "",
                 *       "cert_file": "",
                 *       "key_file": ""
                 *     }
                 */
                "application/json": components["schemas"]["AddRegionBody"];
            };
        };
        responses: {
            /** @description The region as stored. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "region_id": "41379baaec7f4922bda1d18fb58a3051",
                     *       "region_name": "breadth-region",
                     *       "region_alias": "Breadth",
                     *       "url": "http://127.0.0.1:18888",
                     *       "token": null,
                     *       "wsurl": "ws://127.0.0.1:6060",
                     *       "httpdomain": "breadth.example.local",
                     *       "tcpdomain": "127.0.0.1",
                     *       "scope": "private",
                     *       "ssl_ca_cert": "",
                     *       "cert_file": "",
                     *       "key_file": "",
                     *       "status": "1",
                     *       "desc": "breadth test region",
                     *       "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                     *     }
                     */
                    "application/json": components["schemas"]["RegionRecord"];
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
    replaceRegionIp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "region_name": "rainbond",
                 *       "url": "https://10.0.0.12:8443",
                 *       "ws_url": "wss://10.0.0.12:6060",
                 *       "http_domain": "1a2b3c.grapps.cn",
                 *       "tcp_domain": "10.0.0.12",
                 *       "ssl_ca_cert": "",
                 *       "cert_file": "",
                 *       "key_file": ""
                 *     }
                 */
                "application/json": components["schemas"]["ReplaceRegionAddressesBody"];
            };
        };
        responses: {
            /** @description The region was changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "更新成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    listAdministrators: {
        parameters: {
            query?: {
                /** @description Only the administrators of this enterprise. */
                eid?: string;
                /** @description Page number, from 1 (default 1). */
                page?: components["parameters"]["Page"];
                /** @description Items per page (default 10). */
                page_size?: components["parameters"]["PageSize"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of administrators. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "users": [
                     *         {
                     *           "user_id": 1,
                     *           "email": "admin@example.local",
                     *           "nick_name": "admin",
                     *           "phone": null,
                     *           "is_active": true,
                     *           "origion": null,
                     *           "create_time": "2026-11-28 09:50:37.882573",
                     *           "client_ip": null,
                     *           "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                     *         }
                     *       ],
                     *       "total": 1
                     *     }
                     */
                    "application/json": components["schemas"]["UserList"];
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
    addAdministrator: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "2",
                 *       "eid": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                 *     }
                 */
                "application/json": components["schemas"]["AddAdministratorBody"];
            };
        };
        responses: {
            /** @description The user is an administrator (an empty body). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    deleteAdministrator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id, a non-negative integer (anything else answers 500). */
                user_id: components["parameters"]["NumericUserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rights were taken away (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    listUsers: {
        parameters: {
            query?: {
                /** @description Searches user names, emails and phone numbers. */
                query?: string;
                /** @description Page number, from 1 (default 1). */
                page?: components["parameters"]["Page"];
                /** @description Items per page (default 10). */
                page_size?: components["parameters"]["PageSize"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "users": [
                     *         {
                     *           "user_id": 2,
                     *           "email": "user1@example.local",
                     *           "nick_name": "user1",
                     *           "phone": "13800000000",
                     *           "is_active": true,
                     *           "origion": null,
                     *           "create_time": "2026-11-28 10:05:29.336558",
                     *           "client_ip": null,
                     *           "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                     *         }
                     *       ],
                     *       "total": 1
                     *     }
                     */
                    "application/json": components["schemas"]["UserList"];
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
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "nick_name": "user1",
                 *       "password": "correct-horse-1",
                 *       "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60",
                 *       "email": "user1@example.local"
                 *     }
                 */
                "application/json": components["schemas"]["CreateUserBody"];
            };
        };
        responses: {
            /** @description The user was created (an empty body). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "bean": {
                     *         "user_id": 1,
                     *         "email": "admin@example.local",
                     *         "nick_name": "admin",
                     *         "real_name": "Admin",
                     *         "phone": null,
                     *         "is_active": true,
                     *         "origion": "",
                     *         "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                     *       }
                     *     }
                     */
                    "application/json": {
                        bean: components["schemas"]["CurrentUser"];
                    };
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
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": 1,
                     *       "email": "admin@example.local",
                     *       "nick_name": "admin",
                     *       "phone": null,
                     *       "is_active": true,
                     *       "origion": null,
                     *       "create_time": "2026-11-28 09:50:37.882573",
                     *       "client_ip": null,
                     *       "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                     *     }
                     */
                    "application/json": components["schemas"]["UserInfo"];
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
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id, a non-negative integer (anything else answers 500). */
                user_id: components["parameters"]["NumericUserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "real_name": "User One",
                 *       "phone": "13800000000"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateUserBody"];
            };
        };
        responses: {
            /** @description Done (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id, a non-negative integer (anything else answers 500). */
                user_id: components["parameters"]["NumericUserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    closeUserTeamsComponents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id, a non-negative integer (anything else answers 500). */
                user_id: components["parameters"]["NumericUserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The components were stopped. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "bean": "close success"
                     *     }
                     */
                    "application/json": components["schemas"]["BeanMessage"];
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
    deleteUserTeamsApps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id, a non-negative integer (anything else answers 500). */
                user_id: components["parameters"]["NumericUserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The applications were deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "bean": "delete success"
                     *     }
                     */
                    "application/json": components["schemas"]["BeanMessage"];
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
    changeUserPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": 2,
                 *       "password": "correct-horse-2",
                 *       "password1": "correct-horse-2"
                 *     }
                 */
                "application/json": components["schemas"]["ChangeUserPasswordBody"];
            };
        };
        responses: {
            /** @description The password was changed (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    changeOwnPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "password": "correct-horse-1",
                 *       "password1": "correct-horse-1"
                 *     }
                 */
                "application/json": components["schemas"]["NewPasswordBody"];
            };
        };
        responses: {
            /** @description The password was changed (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    listTeams: {
        parameters: {
            query?: {
                /** @description Searches team aliases (and the token's user name). The console writes it into its SQL as it is, so `"` and `\` in it are refused before anything is sent. */
                query?: string;
                /** @description Page number, from 1 (default 1). */
                page?: components["parameters"]["Page"];
                /** @description Items per page (default 10). */
                page_size?: components["parameters"]["PageSize"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of teams. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenants": [
                     *         {
                     *           "ID": 1,
                     *           "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *           "tenant_name": "team1",
                     *           "tenant_alias": "Team One",
                     *           "is_active": true,
                     *           "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60",
                     *           "create_time": "2026-11-28T09:50:37.978030",
                     *           "creater": "admin",
                     *           "role_infos": []
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "page_size": 10
                     *     }
                     */
                    "application/json": components["schemas"]["TeamList"];
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
    createTeam: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tenant_name": "breadth-team",
                 *       "region": "rainbond"
                 *     }
                 */
                "application/json": components["schemas"]["CreateTeamBody"];
            };
        };
        responses: {
            /** @description The team. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenant_id": "f50f7ee88afa41d488d49f91e2c75af3",
                     *       "tenant_name": "okrecs3i",
                     *       "region": "",
                     *       "is_active": true,
                     *       "create_time": "2026-11-28 10:05:55.841130",
                     *       "creater": 1,
                     *       "limit_memory": 0,
                     *       "update_time": "2026-11-28 10:05:55.841193",
                     *       "tenant_alias": "breadth-team",
                     *       "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                     *     }
                     */
                    "application/json": components["schemas"]["TeamBaseInfo"];
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
    getTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The team. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "tenant_name": "team1",
                     *       "tenant_alias": "Team One",
                     *       "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60",
                     *       "is_active": true,
                     *       "create_time": "2026-11-28 09:50:37.978030",
                     *       "creater": "1"
                     *     }
                     */
                    "application/json": components["schemas"]["TeamInfo"];
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
    updateTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tenant_alias": "Breadth Team Renamed",
                 *       "is_active": true
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTeamBody"];
            };
        };
        responses: {
            /** @description Done (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    deleteTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    getTeamRegionResource: {
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
        requestBody?: never;
        responses: {
            /** @description The team's resources in the region. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "total_cpu": 4000,
                     *       "total_memory": 8192,
                     *       "used_cpu": 200,
                     *       "used_memory": 256,
                     *       "used_cpu_percentage": 5,
                     *       "used_memory_percentage": 3.12,
                     *       "team_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "team_name": "team1",
                     *       "team_alias": "Team One"
                     *     }
                     */
                    "application/json": components["schemas"]["TeamAppsResource"];
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
    listTeamCertificates: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). */
                page?: components["parameters"]["Page"];
                /** @description Items per page (default 10). */
                page_size?: components["parameters"]["PageSize"];
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
            /** @description One page of certificates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "list": [
                     *         {
                     *           "has_expired": false,
                     *           "issued_to": [
                     *             "www.example.com",
                     *             "example.com"
                     *           ],
                     *           "alias": "example-com",
                     *           "certificate_type": "服务端证书",
                     *           "end_data": "2027-11-28 10:05:19",
                     *           "id": 3,
                     *           "issued_by": "第三方签发"
                     *         }
                     *       ],
                     *       "page": 1,
                     *       "page_size": 10,
                     *       "total": 1
                     *     }
                     */
                    "application/json": components["schemas"]["CertificateList"];
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
    createTeamCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "alias": "example-com",
                 *       "certificate": "-----BEGIN CERTIFICATE-----\nMIID...EXAMPLE\n-----END CERTIFICATE-----",
                 *       "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE...EXAMPLE\n-----END PRIVATE KEY-----",
                 *       "certificate_type": "服务端证书"
                 *     }
                 */
                "application/json": components["schemas"]["CertificateBody"];
            };
        };
        responses: {
            /** @description The stored certificate, its key included. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "alias": "example-com",
                     *       "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE...EXAMPLE\n-----END PRIVATE KEY-----",
                     *       "certificate": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUQuLi5FWEFNUExFCi0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0=",
                     *       "certificate_type": "服务端证书",
                     *       "id": 3
                     *     }
                     */
                    "application/json": components["schemas"]["Certificate"];
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
    getTeamCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Certificate id, a non-negative integer (the `id` of the certificate list). */
                certificate_id: components["parameters"]["CertificateId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The certificate, its key included. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "alias": "example-com",
                     *       "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE...EXAMPLE\n-----END PRIVATE KEY-----",
                     *       "certificate": "-----BEGIN CERTIFICATE-----\nMIID...EXAMPLE\n-----END CERTIFICATE-----",
                     *       "certificate_type": "服务端证书",
                     *       "id": 3
                     *     }
                     */
                    "application/json": components["schemas"]["Certificate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CertificateNotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            500: components["responses"]["InternalServerError"];
        };
    };
    updateTeamCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Certificate id, a non-negative integer (the `id` of the certificate list). */
                certificate_id: components["parameters"]["CertificateId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "alias": "example-com",
                 *       "certificate": "-----BEGIN CERTIFICATE-----\nMIID...EXAMPLE\n-----END CERTIFICATE-----",
                 *       "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE...EXAMPLE\n-----END PRIVATE KEY-----",
                 *       "certificate_type": "服务端证书"
                 *     }
                 */
                "application/json": components["schemas"]["CertificateBody"];
            };
        };
        responses: {
            /** @description The stored certificate, its key included. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "alias": "example-com",
                     *       "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE...EXAMPLE\n-----END PRIVATE KEY-----",
                     *       "certificate": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUQuLi5FWEFNUExFCi0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0=",
                     *       "certificate_type": "服务端证书",
                     *       "id": 3
                     *     }
                     */
                    "application/json": components["schemas"]["Certificate"];
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
    deleteTeamCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Certificate id, a non-negative integer (the `id` of the certificate list). */
                certificate_id: components["parameters"]["CertificateId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    getResourceOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One diagram, in an array. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "nodes": [
                     *           {
                     *             "id": "web.example.com",
                     *             "level": 0
                     *           },
                     *           {
                     *             "id": "shop(12)",
                     *             "level": 1
                     *           },
                     *           {
                     *             "id": "Team One",
                     *             "level": 2
                     *           },
                     *           {
                     *             "id": "rainbond",
                     *             "level": 3
                     *           }
                     *         ],
                     *         "links": [
                     *           {
                     *             "source": "web.example.com",
                     *             "target": "shop(12)",
                     *             "value": 1200
                     *           },
                     *           {
                     *             "source": "shop(12)",
                     *             "target": "Team One",
                     *             "value": 1200
                     *           },
                     *           {
                     *             "source": "Team One",
                     *             "target": "rainbond",
                     *             "value": 1200
                     *           }
                     *         ]
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ResourceGraph"][];
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
    getServiceOverview: {
        parameters: {
            query: {
                /** @description The region (its name) whose figures or Prometheus to read. */
                region_name: components["parameters"]["MonitorRegionName"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "abnormal_service_num": 0,
                     *       "closed_service_num": 1,
                     *       "started_service_num": 0
                     *     }
                     */
                    "application/json": components["schemas"]["ServiceOverview"];
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
    getComponentMemoryOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One diagram, in an array. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "nodes": [
                     *           {
                     *             "id": "web",
                     *             "level": 0
                     *           },
                     *           {
                     *             "id": "Team One",
                     *             "level": 1
                     *           },
                     *           {
                     *             "id": "rainbond",
                     *             "level": 2
                     *           }
                     *         ],
                     *         "links": [
                     *           {
                     *             "source": "web",
                     *             "target": "Team One",
                     *             "value": 128
                     *           },
                     *           {
                     *             "source": "Team One",
                     *             "target": "rainbond",
                     *             "value": 128
                     *           }
                     *         ]
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ResourceGraph"][];
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
    getPerformanceOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sums. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "cpu_use_sum": 1000,
                     *       "memory_use_sum": 2048,
                     *       "disk_use_sum": 20,
                     *       "node_number": 2,
                     *       "service_number": 1
                     *     }
                     */
                    "application/json": components["schemas"]["PerformanceOverview"];
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
    queryMonitor: {
        parameters: {
            query: {
                /** @description The region (its name) whose figures or Prometheus to read. */
                region_name: components["parameters"]["MonitorRegionName"];
                /** @description A PromQL expression. The console puts it into the region's URL without encoding it again, so an expression with `+`, `&`, `#` or `%` reaches Prometheus changed (a `+` as a space): keep to expressions without them. */
                query: components["parameters"]["PromQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus's answer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "success",
                     *       "data": {
                     *         "resultType": "vector",
                     *         "result": [
                     *           {
                     *             "metric": {
                     *               "__name__": "app_requesttime",
                     *               "service_id": "gr3f9c2a"
                     *             },
                     *             "value": [
                     *               1795831507,
                     *               "1.5"
                     *             ]
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PrometheusAnswer"];
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
    queryMonitorRange: {
        parameters: {
            query: {
                /** @description The region (its name) whose figures or Prometheus to read. */
                region_name: components["parameters"]["MonitorRegionName"];
                /** @description A PromQL expression. The console puts it into the region's URL without encoding it again, so an expression with `+`, `&`, `#` or `%` reaches Prometheus changed (a `+` as a space): keep to expressions without them. */
                query: components["parameters"]["PromQuery"];
                /**
                 * @description Start of the range, a Unix timestamp in seconds.
                 * @example 1700000000
                 */
                start: number;
                /**
                 * @description End of the range, a Unix timestamp in seconds, after `start`.
                 * @example 1700003600
                 */
                end: number;
                /**
                 * @description Seconds between two samples.
                 * @example 60
                 */
                step: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus's answer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "success",
                     *       "data": {
                     *         "resultType": "matrix",
                     *         "result": [
                     *           {
                     *             "metric": {
                     *               "__name__": "app_requesttime",
                     *               "service_id": "gr3f9c2a"
                     *             },
                     *             "values": [
                     *               [
                     *                 1700000000,
                     *                 "1.5"
                     *               ],
                     *               [
                     *                 1700000060,
                     *                 "1.5"
                     *               ]
                     *             ]
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PrometheusAnswer"];
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
    queryMonitorSeries: {
        parameters: {
            query: {
                /** @description The region (its name) whose figures or Prometheus to read. */
                region_name: components["parameters"]["MonitorRegionName"];
                /**
                 * @description A series selector, e.g. `up`.
                 * @example up
                 */
                "match[]": string;
                /** @description Start, a Unix timestamp in seconds. */
                start?: number;
                /** @description End, a Unix timestamp in seconds. */
                end?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus's series answer (never sent by this console). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "success",
                     *       "data": [
                     *         {
                     *           "__name__": "up",
                     *           "instance": "127.0.0.1:9090",
                     *           "job": "prometheus"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description `success` or `error`. */
                        status: string;
                        /** @description The series, each its labels. */
                        data?: {
                            [key: string]: string;
                        }[];
                    };
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
    listInstanceMonitors: {
        parameters: {
            query?: {
                /** @description Only the instances of this region. */
                region_name?: string;
                /** @description Only the instances on this node. */
                node_name?: string;
                /** @description `unhealthy` for the unhealthy instances only. */
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The instances (never sent by this console). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "instance_status": "running",
                     *         "team_alias": "Default",
                     *         "app_name": "web",
                     *         "component_name": "nginx",
                     *         "disk_usage": 0,
                     *         "memory_usage": 128,
                     *         "cpu_usage": 20
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["InstanceMonitor"][];
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
    getEventLogs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The log lines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "logs": [
                     *         {
                     *           "message": "build started",
                     *           "time": "2026-11-28T10:00:00+08:00",
                     *           "utime": 1795831200
                     *         },
                     *         {
                     *           "message": "build complete",
                     *           "time": "2026-11-28T10:00:05+08:00",
                     *           "utime": 1795831205
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["EventLogs"];
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
    getEnterpriseOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "teams": 1,
                     *       "apps": 1,
                     *       "components": 1,
                     *       "instances": 6,
                     *       "nodes": 2,
                     *       "visual_monitor": {
                     *         "enable": true,
                     *         "value": {
                     *           "home_url": "https://visualmonitor.goodrain.com",
                     *           "cluster_monitor_suffix": "/d/cluster/ji-qun-jian-kong-ke-shi-hua",
                     *           "node_monitor_suffix": "/d/node/jie-dian-jian-kong-ke-shi-hua",
                     *           "component_monitor_suffix": "/d/component/zu-jian-jian-kong-ke-shi-hua",
                     *           "slo_monitor_suffix": "/d/service/fu-wu-jian-kong-ke-shi-hua"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["EnterpriseOverview"];
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
    getTeamRegionOverview: {
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
        requestBody?: never;
        responses: {
            /** @description The team's figures in the region. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "total_cpu": 4000,
                     *       "total_memory": 8192,
                     *       "used_cpu": 200,
                     *       "used_memory": 256,
                     *       "app_nums": 1,
                     *       "component_nums": 1
                     *     }
                     */
                    "application/json": components["schemas"]["TeamRegionOverview"];
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
    closeTeamApps: {
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
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "service_ids": [
                 *         "79817af274f9cd774225d15545e0d073"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description The components to stop; left out or empty, every component of the team in the region. */
                    service_ids?: string[];
                };
            };
        };
        responses: {
            /** @description Stopped (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    getApp: {
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
            /** @description The application. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60",
                     *       "service_count": 1,
                     *       "running_service_count": 1,
                     *       "used_momory": 128,
                     *       "used_cpu": 30,
                     *       "app_id": 1,
                     *       "team_name": "team1",
                     *       "status": "running",
                     *       "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "group_name": "app1",
                     *       "region_name": "rainbond",
                     *       "is_default": false,
                     *       "order_index": 0,
                     *       "note": null,
                     *       "username": null,
                     *       "governance_mode": "KUBERNETES_NATIVE_SERVICE",
                     *       "create_time": "2026-11-28T09:51:05.749916",
                     *       "update_time": "2026-11-28T09:51:05.749916",
                     *       "app_type": "rainbond",
                     *       "app_store_name": null,
                     *       "app_store_url": null,
                     *       "app_template_name": null,
                     *       "version": null,
                     *       "logo": "",
                     *       "k8s_app": "app1"
                     *     }
                     */
                    "application/json": components["schemas"]["AppInfo"];
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
    deleteApp: {
        parameters: {
            query?: {
                /** @description `1` to delete even when the region fails to delete (the console then retries and removes its own records); `0`, the default, stops at the region's refusal. Anything but an integer answers 400 "force value error". */
                force?: components["parameters"]["Force"];
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
            /** @description Deleted (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    operateApp: {
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
                 *       "action": "stop",
                 *       "service_ids": [
                 *         "638d9a032f4bd7f8123670617ed55507"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["OperateAppBody"];
            };
        };
        responses: {
            /** @description The region took the request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "msg": "操作成功"
                     *     }
                     */
                    "application/json": components["schemas"]["Message"];
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
    listAppCopyComponents: {
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
            /** @description The components. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "build_source": {
                     *           "version": "1.25",
                     *           "language": "docker-image",
                     *           "code_from": "image_manual",
                     *           "service_source": "docker_image",
                     *           "docker_cmd": "nginx",
                     *           "image": "nginx:1.25",
                     *           "password": null,
                     *           "user_name": null
                     *         },
                     *         "update_time": "2026-11-28 10:08:19",
                     *         "deploy_version": "20261128100819",
                     *         "create_status": "complete",
                     *         "service_alias": "gr710ae5",
                     *         "service_cname": "web",
                     *         "version": "1.25",
                     *         "service_type": "application",
                     *         "service_id": "8d56cd3cf9e64938ffa8306430710ae5",
                     *         "app_name": "shop",
                     *         "min_memory": "512"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["AppCopyComponent"][];
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
    copyApp: {
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
                 *       "services": [
                 *         {
                 *           "service_id": "8d56cd3cf9e64938ffa8306430710ae5",
                 *           "change": {
                 *             "build_source": {
                 *               "version": "1.26"
                 *             },
                 *             "envs": {}
                 *           }
                 *         }
                 *       ],
                 *       "target_team_name": "team1",
                 *       "target_region_name": "rainbond",
                 *       "target_app_id": 5
                 *     }
                 */
                "application/json": components["schemas"]["CopyAppBody"];
            };
        };
        responses: {
            /** @description The components made. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "services": [
                     *         {
                     *           "status": "closed",
                     *           "access_infos": [],
                     *           "service_id": "2a7c9e41d5b04f6e8c3a1b2d4e6f8091",
                     *           "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *           "service_key": "0000",
                     *           "service_alias": "gr6f8091",
                     *           "service_cname": "web",
                     *           "service_region": "rainbond",
                     *           "desc": "docker run application",
                     *           "category": "app_publish",
                     *           "version": "1.26",
                     *           "update_version": 1,
                     *           "image": "nginx:1.26",
                     *           "cmd": null,
                     *           "min_node": 1,
                     *           "min_cpu": 0,
                     *           "container_gpu": 0,
                     *           "min_memory": 512,
                     *           "extend_method": "stateless_multiple",
                     *           "code_from": "image_manual",
                     *           "git_url": null,
                     *           "git_project_id": 0,
                     *           "code_version": null,
                     *           "service_type": "application",
                     *           "creater": 1,
                     *           "language": "docker-image",
                     *           "total_memory": 512,
                     *           "is_service": false,
                     *           "service_origin": "assistant",
                     *           "tenant_service_group_id": 0,
                     *           "open_webhooks": false,
                     *           "service_source": "docker_image",
                     *           "create_status": "complete",
                     *           "check_uuid": "",
                     *           "check_event_id": "",
                     *           "docker_cmd": "",
                     *           "server_type": "git",
                     *           "is_upgrate": false,
                     *           "build_upgrade": true,
                     *           "oauth_service_id": null,
                     *           "k8s_component_name": "gr6f8091"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CopiedComponents"];
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
    deleteAppWithResources: {
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
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "删除成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    listAppUpgrades: {
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
            /** @description The installed store applications. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "market_name": "localApplication",
                     *         "app_model_id": "0f810258a8073d1c8b4620b7f069975b",
                     *         "app_model_name": "shop",
                     *         "current_version": "1.0",
                     *         "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60",
                     *         "can_upgrade": true,
                     *         "upgrade_versions": [
                     *           "1.1"
                     *         ],
                     *         "source": "local"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["AppUpgradeInfo"][];
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
    upgradeApp: {
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
                 *       "update_versions": [
                 *         {
                 *           "market_name": "localApplication",
                 *           "app_model_id": "0f810258a8073d1c8b4620b7f069975b",
                 *           "app_model_version": "1.1"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["UpgradeAppBody"];
            };
        };
        responses: {
            /** @description The installed store applications after the upgrade. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example [] */
                    "application/json": components["schemas"]["AppUpgradeInfo"][];
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
    checkHelmChart: {
        parameters: {
            query: {
                /** @description The Helm repository's name, as the console knows it. */
                repo_name: string;
                /** @description The chart. */
                chart_name: string;
                /** @description The chart's version. */
                version: string;
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
            /** @description The region's check. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": components["schemas"]["HelmChartCheck"];
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
    updateHelmChart: {
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
                 *       "operating_mode": "close"
                 *     }
                 */
                "application/json": {
                    /** @description The policy's mode. */
                    operating_mode: string;
                };
            };
        };
        responses: {
            /** @description Accepted (nothing changed on this console). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    installHelmChart: {
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
                 *       "repo_name": "bitnami",
                 *       "chart_name": "nginx",
                 *       "version": "15.0.0"
                 *     }
                 */
                "application/json": components["schemas"]["HelmChartBody"];
            };
        };
        responses: {
            /** @description Installed (what the shadowed handler answered; this console answers 500 instead). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    listComponents: {
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
            /** @description The components. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "status": "running",
                     *         "access_infos": [],
                     *         "service_id": "c5f0e1d2a3b4c5d6e7f8091a2b3c4d5e",
                     *         "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *         "service_key": "0000",
                     *         "service_alias": "gr3c4d5e",
                     *         "service_cname": "web",
                     *         "service_region": "rainbond",
                     *         "desc": null,
                     *         "category": "application",
                     *         "version": "latest",
                     *         "update_version": 1,
                     *         "image": "nginx:latest",
                     *         "cmd": null,
                     *         "min_node": 1,
                     *         "min_cpu": 100,
                     *         "container_gpu": 0,
                     *         "min_memory": 128,
                     *         "extend_method": "stateless_multiple",
                     *         "code_from": null,
                     *         "git_url": null,
                     *         "git_project_id": 0,
                     *         "code_version": null,
                     *         "service_type": null,
                     *         "creater": 1,
                     *         "language": null,
                     *         "total_memory": 0,
                     *         "is_service": false,
                     *         "service_origin": "assistant",
                     *         "tenant_service_group_id": 0,
                     *         "open_webhooks": false,
                     *         "service_source": "docker_image",
                     *         "create_status": "complete",
                     *         "check_uuid": "",
                     *         "check_event_id": "",
                     *         "docker_cmd": null,
                     *         "server_type": "git",
                     *         "is_upgrate": false,
                     *         "build_upgrade": true,
                     *         "oauth_service_id": null,
                     *         "k8s_component_name": "web"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ServiceBaseInfo"][];
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
    createComponentFromImage: {
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
                 *       "group_id": 4,
                 *       "service_cname": "web",
                 *       "image": "nginx:1.25",
                 *       "k8s_component_name": "web",
                 *       "is_deploy": false
                 *     }
                 */
                "application/json": components["schemas"]["CreateImageComponentBody"];
            };
        };
        responses: {
            /** @description The component created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "service_id": "638d9a032f4bd7f8123670617ed55507"
                     *     }
                     */
                    "application/json": components["schemas"]["NewComponent"];
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
    createThirdPartyComponent: {
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
                 *       "endpoints_type": "static",
                 *       "endpoints": [
                 *         "10.0.0.5:8080"
                 *       ],
                 *       "component_name": "billing"
                 *     }
                 */
                "application/json": components["schemas"]["CreateThirdPartyComponentBody"];
            };
        };
        responses: {
            /** @description The component created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ID": 5,
                     *       "service_id": "6fec91a15104313bb08b6e24bd9d61e9",
                     *       "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "service_key": "application",
                     *       "service_alias": "gr9d61e9",
                     *       "service_cname": "billing",
                     *       "service_region": "rainbond",
                     *       "desc": "third party service",
                     *       "category": "application",
                     *       "service_port": 0,
                     *       "is_web_service": false,
                     *       "version": "81701",
                     *       "update_version": 1,
                     *       "image": "third_party",
                     *       "cmd": "",
                     *       "min_node": 0,
                     *       "min_cpu": 0,
                     *       "container_gpu": 0,
                     *       "min_memory": 0,
                     *       "setting": "",
                     *       "extend_method": "stateless_multiple",
                     *       "env": "",
                     *       "inner_port": 0,
                     *       "volume_mount_path": "",
                     *       "host_path": "",
                     *       "deploy_version": "",
                     *       "code_from": null,
                     *       "git_url": null,
                     *       "create_time": "2026-11-28 10:07:53",
                     *       "git_project_id": 0,
                     *       "is_code_upload": false,
                     *       "code_version": null,
                     *       "service_type": "application",
                     *       "creater": 1,
                     *       "language": null,
                     *       "build_strategy": "",
                     *       "protocol": "tcp",
                     *       "total_memory": 0,
                     *       "is_service": false,
                     *       "namespace": "third_party",
                     *       "volume_type": "shared",
                     *       "port_type": "multi_outer",
                     *       "service_origin": "assistant",
                     *       "tenant_service_group_id": 0,
                     *       "expired_time": null,
                     *       "open_webhooks": false,
                     *       "service_source": "third_party",
                     *       "create_status": "creating",
                     *       "update_time": "2026-11-28 10:07:53",
                     *       "check_uuid": "",
                     *       "check_event_id": "",
                     *       "docker_cmd": null,
                     *       "secret": null,
                     *       "server_type": "",
                     *       "is_upgrate": false,
                     *       "build_upgrade": true,
                     *       "service_name": "",
                     *       "oauth_service_id": null,
                     *       "git_full_name": null,
                     *       "k8s_component_name": "gr9d61e9",
                     *       "job_strategy": "",
                     *       "arch": "amd64",
                     *       "dockerfile": "",
                     *       "api_service_key": "REDACTED",
                     *       "url": "http://127.0.0.1:7070/console/third_party/6fec91a15104313bb08b6e24bd9d61e9"
                     *     }
                     */
                    "application/json": components["schemas"]["ThirdPartyComponent"];
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
    scaleComponentVertical: {
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
                 *       "new_memory": 256,
                 *       "new_cpu": 250,
                 *       "new_gpu": 0
                 *     }
                 */
                "application/json": {
                    /** @description Memory per instance, in MB, 64 to 65536. The console also refuses a value one above a multiple of 64 (e.g. 129). */
                    new_memory: number;
                    /** @description CPU per instance, in millicores (1000 is one core), 0 or more; `null` leaves it to the console. */
                    new_cpu: number | null;
                    /** @description GPU memory per instance, 0 or more; `null` leaves it to the console. */
                    new_gpu: number | null;
                };
            };
        };
        responses: {
            /** @description Scaled (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    scaleComponentHorizontal: {
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
                 *       "new_node": 2
                 *     }
                 */
                "application/json": {
                    /** @description Number of instances. */
                    new_node: number;
                };
            };
        };
        responses: {
            /** @description Scaled (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    updateComponentEnvs: {
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
                 *       "envs": [
                 *         {
                 *           "name": "LOG_LEVEL",
                 *           "value": "info",
                 *           "note": "verbosity"
                 *         },
                 *         {
                 *           "name": "API_BASE",
                 *           "value": "https://api.example.org",
                 *           "scope": "outer"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ComponentEnvs"];
            };
        };
        responses: {
            /** @description Every environment variable of the component. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "envs": [
                     *         {
                     *           "note": "verbosity",
                     *           "name": "LOG_LEVEL",
                     *           "value": "info",
                     *           "is_change": true,
                     *           "scope": "inner"
                     *         },
                     *         {
                     *           "note": "",
                     *           "name": "API_BASE",
                     *           "value": "https://api.example.org",
                     *           "is_change": true,
                     *           "scope": "outer"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ComponentEnvs"];
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
    buildComponent: {
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
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "repo_url": "registry.example.org/shop/web:1.27"
                 *     }
                 */
                "application/json": components["schemas"]["BuildComponentBody"];
            };
        };
        responses: {
            /** @description The build started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "event_id": "ee0a51caaf604f1d897a640301a27986"
                     *     }
                     */
                    "application/json": {
                        /** @description The build's event id. */
                        event_id: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            500: components["responses"]["InternalServerError"];
            507: components["responses"]["BuildFailed"];
        };
    };
    changeComponentImage: {
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
                 *       "image": "nginx:1.26"
                 *     }
                 */
                "application/json": {
                    /** @description The image, with its tag. */
                    image: string;
                };
            };
        };
        responses: {
            /** @description Recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "更改镜像地址成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    addComponentVolume: {
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
                 *       "volume_name": "data",
                 *       "volume_path": "/data",
                 *       "volume_capacity": 1,
                 *       "volume_type": "share-file"
                 *     }
                 */
                "application/json": components["schemas"]["AddVolumeBody"];
            };
        };
        responses: {
            /** @description The volume added. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ID": 1,
                     *       "service_id": "638d9a032f4bd7f8123670617ed55507",
                     *       "category": "app_publish",
                     *       "host_path": "/grdata/tenant/b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c/service/638d9a032f4bd7f8123670617ed55507/data",
                     *       "volume_type": "local-path",
                     *       "volume_path": "/data",
                     *       "volume_name": "data",
                     *       "volume_capacity": 1,
                     *       "volume_provider_name": "",
                     *       "access_mode": "RWX",
                     *       "share_policy": "exclusive",
                     *       "backup_policy": "exclusive",
                     *       "reclaim_policy": "exclusive",
                     *       "allow_expansion": false,
                     *       "mode": null
                     *     }
                     */
                    "application/json": components["schemas"]["ComponentVolume"];
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
    listComponentEvents: {
        parameters: {
            query?: {
                /** @description The page, from 1. */
                page?: number;
                /** @description Events per page. */
                page_size?: number;
            };
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
            /** @description A page of events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "page": 1,
                     *       "page_size": 5,
                     *       "total": 1,
                     *       "events": [
                     *         {
                     *           "event_id": "5e1f0c0de0e0400a9b8c7d6e5f4a3b2c",
                     *           "user_name": "admin",
                     *           "end_time": "2026-11-28T10:00:05+08:00",
                     *           "target": "service",
                     *           "opt_type": "build-service",
                     *           "target_id": "638d9a032f4bd7f8123670617ed55507",
                     *           "service_id": "{}",
                     *           "status": "success",
                     *           "request_body": "",
                     *           "create_time": "2026-11-28T10:00:00+08:00",
                     *           "final_status": "complete",
                     *           "start_time": "2026-11-28T10:00:00+08:00",
                     *           "syn_type": "0",
                     *           "message": "",
                     *           "tenant_id": ""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ComponentEventsPage"];
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
    listTeamInnerPorts: {
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
        requestBody?: never;
        responses: {
            /** @description The team's namespace and internal ports. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "namespace": "team1",
                     *       "ports": [
                     *         {
                     *           "port": 80,
                     *           "service_name": "grd55507",
                     *           "namespace": "team1",
                     *           "component_name": "web"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["TeamInnerPorts"];
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
    updateGatewayRule: {
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
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "service_id": "638d9a032f4bd7f8123670617ed55507",
                 *       "container_port": 80,
                 *       "domain_name": "shop.example.org"
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
                     *       "http_rule_id": "e8e3a3c6d8c413cd0a1f5bf9db0d0375",
                     *       "region_id": "5a1e0c9b8d7f4e3a2b1c0d9e8f7a6b5c",
                     *       "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "service_id": "638d9a032f4bd7f8123670617ed55507",
                     *       "service_name": "grd55507",
                     *       "domain_name": "shop.example.org",
                     *       "container_port": 80,
                     *       "protocol": "http",
                     *       "certificate_id": 0,
                     *       "domain_type": "www",
                     *       "service_alias": "web",
                     *       "is_senior": false,
                     *       "domain_path": "/",
                     *       "domain_cookie": "",
                     *       "domain_heander": "",
                     *       "type": 1,
                     *       "the_weight": 100,
                     *       "is_outer_service": true,
                     *       "auto_ssl": false,
                     *       "auto_ssl_config": null,
                     *       "path_rewrite": false,
                     *       "rewrites": "[]"
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
    deleteGatewayRule: {
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
        requestBody?: never;
        responses: {
            /** @description The deleted rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "rule_extensions": [],
                     *       "http_rule_id": "e8e3a3c6d8c413cd0a1f5bf9db0d0375",
                     *       "region_id": "5a1e0c9b8d7f4e3a2b1c0d9e8f7a6b5c",
                     *       "tenant_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *       "service_id": "638d9a032f4bd7f8123670617ed55507",
                     *       "service_name": "grd55507",
                     *       "domain_name": "shop.example.org",
                     *       "container_port": 80,
                     *       "protocol": "http",
                     *       "certificate_id": 0,
                     *       "domain_type": "www",
                     *       "service_alias": "web",
                     *       "is_senior": false,
                     *       "domain_path": "/",
                     *       "domain_cookie": "",
                     *       "domain_heander": "",
                     *       "type": 1,
                     *       "the_weight": 100,
                     *       "is_outer_service": true,
                     *       "auto_ssl": false,
                     *       "auto_ssl_config": null,
                     *       "path_rewrite": false,
                     *       "rewrites": "[]"
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
    createOrUpdateAppModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "app_name": "shop",
                 *       "version": "1.0",
                 *       "app_version_info": "first release",
                 *       "apps": [
                 *         {
                 *           "service_key": "shop-web",
                 *           "service_cname": "web",
                 *           "service_alias": "gr-shopweb",
                 *           "service_share_uuid": "shop-web+shop-web",
                 *           "image": "nginx:1.25",
                 *           "share_image": "nginx:1.25",
                 *           "version": "1.25",
                 *           "category": "app_publish",
                 *           "service_source": "docker_image",
                 *           "service_type": "application",
                 *           "extend_method": "stateless_multiple",
                 *           "memory": 128,
                 *           "cpu": 100,
                 *           "port_map_list": [
                 *             {
                 *               "container_port": 80,
                 *               "protocol": "http",
                 *               "port_alias": "WEB80",
                 *               "is_inner_service": false,
                 *               "is_outer_service": true
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["AppModelBody"];
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "msg": "版本已创建",
                     *       "app_id": "0f810258a8073d1c8b4620b7f069975b"
                     *     }
                     */
                    "application/json": {
                        /** @description "版本已创建" (a new version) or "版本已更新" (an existing version overwritten). */
                        msg: string;
                        /** @description The template's id (derived from `app_name`). */
                        app_id: string;
                    };
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
    deployAppModel: {
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
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "deploy_type": "ram",
                 *       "action": "deploy",
                 *       "app_id": 5,
                 *       "group_key": "0f810258a8073d1c8b4620b7f069975b",
                 *       "group_version": "1.0"
                 *     }
                 */
                "application/json": components["schemas"]["DeployAppModelBody"];
            };
        };
        responses: {
            /** @description Installed, upgraded or deployed ("安装应用成功", "升级应用成功", "docker compose 部署成功"). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "安装应用成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    smartDeployAppModel: {
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
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "app_name": "shop",
                 *       "template_id": "0f810258a8073d1c8b4620b7f069975b"
                 *     }
                 */
                "application/json": {
                    /** @description The application, by name; created when the team has none of that name. */
                    app_name: string;
                    /** @description The template's id (its `app_id` from `appModels.save`). */
                    template_id: string;
                    /**
                     * @description Whether to build and start what it installs.
                     * @default true
                     */
                    is_deploy?: boolean;
                    /**
                     * @description The cloud market to take the template from; empty for the local store.
                     * @default
                     */
                    market_name?: string;
                };
            };
        };
        responses: {
            /** @description What was done. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "action": "install",
                     *       "app_id": 6,
                     *       "app_name": "shop",
                     *       "template_id": "0f810258a8073d1c8b4620b7f069975b",
                     *       "template_version": "1.0"
                     *     }
                     */
                    "application/json": components["schemas"]["SmartDeployResult"];
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
    createAppImport: {
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
        requestBody?: never;
        responses: {
            /** @description The import. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "uploading",
                     *       "source_dir": "",
                     *       "event_id": "465f0ec6ca024638ae6b21e551fc1209",
                     *       "upload_url": "/console/regions/rainbond/websocket/app/upload/465f0ec6ca024638ae6b21e551fc1209",
                     *       "region_name": "Built-in"
                     *     }
                     */
                    "application/json": components["schemas"]["AppImportUpload"];
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
    getAppImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import, and the templates imported once it succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "查询成功",
                     *       "data": {
                     *         "bean": {
                     *           "ID": 1,
                     *           "event_id": "465f0ec6ca024638ae6b21e551fc1209",
                     *           "status": "importing",
                     *           "scope": "enterprise",
                     *           "format": "",
                     *           "source_dir": "",
                     *           "create_time": "2026-11-28 10:09:06",
                     *           "update_time": "2026-11-28 10:09:06",
                     *           "team_name": "team1",
                     *           "region": "rainbond",
                     *           "user_name": "admin",
                     *           "enterprise_id": "8c1d2a6e0f3b4c5d9e7a1b2c3d4e5f60"
                     *         },
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AppImportStatus"];
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
    startAppImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "file_name": "shop-1.0.tar.gz",
                 *       "tenant_name": "team1"
                 *     }
                 */
                "application/json": {
                    /** @description The uploaded packages to import, comma-separated. */
                    file_name: string;
                    /** @description The team to record as the importer. */
                    tenant_name?: string;
                };
            };
        };
        responses: {
            /** @description The import started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "操作成功，正在导入",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    deleteAppImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Abandoned. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "操作成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    listAppImportDir: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The packages' file names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       "shop-1.0.tar.gz"
                     *     ]
                     */
                    "application/json": string[];
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
    createAppImportDir: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ID": 2,
                     *       "event_id": "9b1c3d5e7f9a4b6c8d0e2f4a6b8c0d1e",
                     *       "status": "created_dir",
                     *       "scope": "",
                     *       "format": "",
                     *       "source_dir": "/grdata/app/import/9b1c3d5e7f9a4b6c8d0e2f4a6b8c0d1e",
                     *       "create_time": "2026-11-28 10:10:00",
                     *       "update_time": "2026-11-28 10:10:00",
                     *       "team_name": "team1",
                     *       "region": "rainbond",
                     *       "user_name": "admin",
                     *       "enterprise_id": null
                     *     }
                     */
                    "application/json": components["schemas"]["AppImportRecord"];
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
    deleteAppImportDir: {
        parameters: {
            query: {
                /** @description The import's id again (the console reads it from the query, not the path). */
                event_id: string;
            };
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted (never answered on this console). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "查询成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    installChartFromImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Team id. */
                team_id: components["parameters"]["TeamId"];
                /** @description Region name. */
                region_name: components["parameters"]["RegionName"];
                /** @description Event id (an import's, or a build's or other operation's). */
                event_id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "app_id": 5,
                 *       "name": "nginx",
                 *       "version": "15.0.0",
                 *       "action": "deploy"
                 *     }
                 */
                "application/json": {
                    /** @description The application to install into or upgrade. */
                    app_id: number;
                    /** @description The chart's name. */
                    name: string;
                    /** @description The chart's version. */
                    version: string;
                    /**
                     * @description `deploy` (install) or `upgrade`.
                     * @enum {string}
                     */
                    action: "deploy" | "upgrade";
                };
            };
        };
        responses: {
            /** @description Installed or upgraded (`code` 200: "安装应用成功", "更新应用成功"), or the chart was not found (`code` 400, "解析失败，没有找到 ..."). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 200,
                     *       "msg": "success",
                     *       "msg_show": "安装应用成功",
                     *       "data": {
                     *         "bean": {},
                     *         "list": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ConsoleMessage"];
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
    createGrayRelease: {
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
                 *       "template_id": "0f810258a8073d1c8b4620b7f069975b",
                 *       "domain_name": "shop.example.org",
                 *       "gray_ratio": 20
                 *     }
                 */
                "application/json": {
                    /** @description The template to release (its id in the local store, or in `market_name`). */
                    template_id: string;
                    /** @description A domain of the application whose traffic is shared. */
                    domain_name: string;
                    /** @description Percent of the traffic for the new version. */
                    gray_ratio: number;
                    /** @description With `install_from_cloud`, the cloud market. */
                    market_name?: string;
                    /**
                     * @description Whether the template comes from a cloud market.
                     * @default false
                     */
                    install_from_cloud?: boolean;
                };
            };
        };
        responses: {
            /** @description The release started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "app_id": 5,
                     *       "app_name": "shop",
                     *       "original_service_id": "638d9a032f4bd7f8123670617ed55507",
                     *       "original_service_cname": "web",
                     *       "original_weight": 80,
                     *       "new_service_id": "2a7c9e41d5b04f6e8c3a1b2d4e6f8091",
                     *       "new_service_cname": "web",
                     *       "new_weight": 20,
                     *       "domain_name": "shop.example.org",
                     *       "gray_ratio": 20
                     *     }
                     */
                    "application/json": components["schemas"]["GrayReleaseState"];
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
    updateGrayRatio: {
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
                 *       "template_id": "0f810258a8073d1c8b4620b7f069975b",
                 *       "gray_ratio": 50
                 *     }
                 */
                "application/json": {
                    /** @description The template of the active release. */
                    template_id: string;
                    /** @description Percent of the traffic for the new version; 100 completes the release and deletes the original components. */
                    gray_ratio: number;
                };
            };
        };
        responses: {
            /** @description The release after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "app_id": 5,
                     *       "app_name": "shop",
                     *       "original_service_id": "638d9a032f4bd7f8123670617ed55507",
                     *       "original_service_cname": "web",
                     *       "original_weight": 50,
                     *       "new_service_id": "2a7c9e41d5b04f6e8c3a1b2d4e6f8091",
                     *       "new_service_cname": "web",
                     *       "new_weight": 50,
                     *       "domain_name": "shop.example.org",
                     *       "gray_ratio": 50
                     *     }
                     */
                    "application/json": components["schemas"]["GrayReleaseState"];
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
    rollbackGrayRelease: {
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
                 *       "template_id": "0f810258a8073d1c8b4620b7f069975b"
                 *     }
                 */
                "application/json": {
                    /** @description The template of the active release. */
                    template_id: string;
                };
            };
        };
        responses: {
            /** @description Rolled back. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "app_id": 5,
                     *       "app_name": "shop",
                     *       "domain_name": "shop.example.org",
                     *       "deleted_service_count": 1
                     *     }
                     */
                    "application/json": {
                        /** @description Application id. */
                        app_id: number;
                        /** @description Application name. */
                        app_name: string;
                        /** @description The domain whose traffic went back. */
                        domain_name: string;
                        /** @description How many components of the new version were deleted. */
                        deleted_service_count: number;
                    };
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
    listGrayReleases: {
        parameters: {
            query?: {
                /** @description `active` (in progress), `completed` or `cancelled`; left out, all. */
                status?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gray releases. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 1,
                     *         "app_id": 5,
                     *         "team_id": "b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c",
                     *         "app_name": "shop",
                     *         "template_id": "0f810258a8073d1c8b4620b7f069975b",
                     *         "template_name": "shop",
                     *         "template_version": "1.1",
                     *         "domain_name": "shop.example.org",
                     *         "gray_ratio": 20,
                     *         "status": "active",
                     *         "service_mappings": [
                     *           {
                     *             "original_service_id": "638d9a032f4bd7f8123670617ed55507",
                     *             "original_service_cname": "web",
                     *             "original_service_alias": "grd55507",
                     *             "gray_service_id": "2a7c9e41d5b04f6e8c3a1b2d4e6f8091",
                     *             "gray_service_cname": "web",
                     *             "gray_service_alias": "gr6f8091"
                     *           }
                     *         ],
                     *         "create_time": "2026-11-28 10:20:00",
                     *         "update_time": "2026-11-28 10:20:00"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["GrayRelease"][];
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
