// A drift of the stand-in console (stand-in.ts) that departs from the spec the way a real console can: fields the spec
// lacks, nulls in fields it says are strings, a value its enum lacks, a time without a UTC offset, a missing required
// field, a number sent as a string, statuses it does not declare; and a region's key echoed in a field of its own, so
// that what `--overlay` writes can be checked for secrets. Each entry says what `npm run verify` should find.
import type { Reply } from "../helpers/recording-server.js";
import { KEY_FILE } from "./stand-in.js";

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function departing(operationId: string, reply: Reply): Reply | void {
  const body = reply.body as Body;
  switch (operationId) {
    case "listTeamRegions":
      body.total = String(body.total); // another type: a string where the spec says integer
      return;
    case "getRegion":
      Object.assign(body, { url: null, desc: null }); // nullable strings
      body.key_backup = KEY_FILE; // an extra field holding a secret: its type may be written, never its value
      return;
    case "listApps":
      body[0].create_time = "2026-11-27T00:24:07.806917"; // no UTC offset: not a JSON Schema date-time
      body[0].owner_team = { id: 7 }; // an extra object
      return;
    case "listTeamResources":
      return { ...reply, status: 202 }; // a 2xx the spec does not declare
    case "listEnterpriseHttpRules":
      body[0].auto_ssl_config = null;
      return;
    case "listAppHttpRules":
      body[0].type = 2; // a value the enum lacks
      return;
    case "queryComponentMonitor":
      return { status: 418, body: { code: 418, msg: "teapot", msg_show: "茶壶" } }; // an error status not declared
    case "getComponent":
      delete body.service_key; // a required field missing
      Object.assign(body, { arch: "amd64", build_strategy: null, job_strategy: "" }); // extra fields
      return;
    case "listComponentPorts":
    case "addComponentPort":
    case "updateComponentPort":
    case "deleteComponentPort":
      for (const port of [...body.data.list, body.data.bean].filter((p) => "container_port" in p))
        Object.assign(port, { mapping_port: port.container_port, lb_mapping_port: 0 });
      return;
  }
}
