// A drift of the console stand-in (test/helpers/console/stand-in.ts) that departs from the project's spec (spec/ with its console overlay)
// as a console can: fields the spec lacks, a null in a field it says is a string, a number sent as a string, a value its
// enum lacks, a missing required field, statuses it does not declare; and a region's key echoed in a field of its own,
// so that what `--overlay` writes can be checked for secrets. None of them is a finding of the measured console (the
// overlay has those): each stays a departure however that overlay grows.
import type { Reply } from "../../helpers/faults/server.js";
import { exchanges, operationOf } from "../../helpers/console/recorded.js";
import { KEY_FILE } from "../../helpers/console/stand-in.js";

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The departures, by operation, as `ConsoleStandIn.drift`. */
export function departing(operationId: string, reply: Reply): Reply | void {
  const body = reply.body as Body;
  switch (operationId) {
    case "listTeamRegions":
      body.total = String(body.total); // another type: a string where the spec says integer
      return;
    case "getRegion": {
      // a region's record (the measured console refuses the plain-HTTP region with a 400; one with certificates is sent)
      const region = structuredClone(exchanges.find((e) => e.status === 200 && operationOf(e) === "getRegion")!.answer);
      Object.assign(region as Body, {
        region_alias: null, // null in a string field
        key_backup: KEY_FILE, // an extra field holding a secret: its type may be written, never its value
      });
      return { status: 200, body: region };
    }
    case "listApps":
      body[0].owner_team = { id: 7 }; // an extra object
      return;
    case "listTeamResources":
      return { ...reply, status: 202 }; // a 2xx the spec does not declare
    case "listEnterpriseHttpRules":
      body[0].domain_cookie = null;
      return;
    case "listAppHttpRules":
      body[0].type = 2; // a value the enum lacks
      return;
    case "queryComponentMonitor":
      return { status: 418, body: { code: 418, msg: "teapot", msg_show: "茶壶" } }; // an error status not declared
    case "getComponent":
      delete body.service_key; // a required field missing
      Object.assign(body, { gpu_model: "t4", lifecycle: null }); // extra fields, one null
      return;
    case "listComponentPorts":
    case "addComponentPort":
    case "updateComponentPort":
    case "deleteComponentPort":
      for (const port of [...body.data.list, body.data.bean].filter((p) => "container_port" in p)) port.port_weight = 1;
      return;
  }
}
