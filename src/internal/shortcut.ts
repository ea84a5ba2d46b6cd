// Shortcuts: a method of the grouped client that calls an operation with members of its body fixed, and perhaps one
// or more taken from an argument (the spec's `x-rainbond-shortcuts`), e.g. `ports.openOuter(component, port)`.
import { RainbondInputError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import type { RainbondCore, RainbondPromise } from "../core/promise.js";
import type { OperationSpec, Shortcut } from "../core/table.js";
import { rejected } from "./call.js";
import { consoleRuleOf } from "./validate.js";

/** The shortcut's function: the operation's arguments with the body made from `fixed` and the shortcut's argument. */
export function shortcut<A extends unknown[], R>(
  fn: (core: RainbondCore, ...args: A) => RainbondPromise<R>,
  spec: OperationSpec,
  { name, body: fixed, argument }: Shortcut,
): (core: RainbondCore, ...args: unknown[]) => RainbondPromise<R> {
  const at = spec.args.findIndex((a) => a.kind === "body");
  return (core, ...args) => {
    const rest = args.slice(at);
    const body: Record<string, unknown> = { ...fixed };
    const refuse = (at: string, rule: string) => rejected<R>(new RainbondInputError(name, at, rule, "required"));
    if (argument) {
      const value = rest.shift();
      if (argument.member) {
        if (value === undefined) return refuse(argument.name, "is required");
        body[argument.member] = value;
      } else {
        const given = isRecord(value) ? value : {};
        for (const key of argument.required ?? []) {
          const rule = spec.body?.properties?.[key];
          if (given[key] === undefined) return refuse(`${argument.name}.${key}`, `is required${consoleRuleOf(rule)}`);
        }
        for (const key of argument.members ?? []) if (given[key] !== undefined) body[key] = given[key];
      }
    }
    return fn(core, ...([...args.slice(0, at), body, ...rest] as A));
  };
}
