// Checks that scripts/generate.mjs prints openapi.json exactly as prettier would: formatJsonFast(value, options)
// against prettier.format(JSON.stringify(value), { ...options, parser: "json" }) on generated/openapi.json and on
// random JSON values (nested objects and arrays of every kind, numbers-only arrays, empty containers, strings with
// escapes, CJK and emoji whose display width differs from their length) at several print widths and indents.
// Run by test/bench-smoke.test.ts, so a prettier upgrade that changes its JSON layout fails `npm test`.
//
//   node scripts/bench/json-format-check.mjs [cases] [seed]
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { formatJsonFast } from "../generate.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

function randomJson(seed) {
  let state = seed >>> 0 || 1;
  const rnd = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const words = [
    "a",
    "port",
    "参数错误",
    "端口已存在",
    "😀",
    'x"y',
    "back\\slash",
    "tab\t",
    "nl\n",
    "é",
    "\u0301e",
    "©",
    "a long description that needs the line to wrap somewhere",
    "",
    "ﾊﾝｶｸ",
    "ＡＢＣ",
    "<&>",
    "\u2028",
  ];
  const text = () => Array.from({ length: Math.floor(rnd() * 8) }, () => pick(words)).join(pick([" ", ""]));
  const scalar = () =>
    pick([
      text,
      () => Math.floor(rnd() * 1e6) - 5e5,
      () => Math.round(rnd() * 1e4) / 100,
      () => true,
      () => false,
      () => null,
      () => -0.5,
      () => 0,
    ])();
  const value = (depth) => {
    const r = rnd();
    if (depth > 4 || r < 0.3) return scalar();
    if (r < 0.45)
      return Array.from({ length: Math.floor(rnd() * 8) }, () => (rnd() < 0.5 ? scalar() : value(depth + 1)));
    if (r < 0.55) return Array.from({ length: Math.floor(rnd() * 30) }, () => Math.floor(rnd() * 1e5) - 50);
    if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
    if (r < 0.7)
      return pick([
        [
          [1, 2],
          [3, 4],
        ],
        [[1, 2], { a: 1, b: 2 }],
        [{ a: 1 }, { b: 2, c: 3 }],
        [{}, []],
        [[]],
      ]);
    const out = {};
    for (let i = Math.floor(rnd() * 6); i > 0; i--) {
      out[pick(["name", "in", "200", "x-y", "参数", "$ref", text().slice(0, 12)]) + (rnd() < 0.3 ? i : "")] = value(
        depth + 1,
      );
    }
    return out;
  };
  return {
    value: () => value(0),
    options: () =>
      pick([
        { printWidth: 120 },
        { printWidth: 80 },
        { printWidth: 40 },
        { printWidth: 20 },
        { printWidth: 100, tabWidth: 4 },
        { printWidth: 60, useTabs: true },
      ]),
  };
}

/** { compared, mismatches: [{ value, options }] }; the spec itself is the first case. */
export async function checkJsonFormatter({ cases = 500, seed = 1 } = {}) {
  const spec = JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8"));
  const prettierConfig = (await prettier.resolveConfig(join(root, "package.json"))) ?? {};
  const random = randomJson(seed);
  const inputs = [{ value: spec, options: prettierConfig }];
  for (let i = 0; i < cases; i++) inputs.push({ value: random.value(), options: random.options() });
  const mismatches = [];
  let compared = 0;
  for (const { value, options } of inputs) {
    const fast = await formatJsonFast(value, options);
    if (fast === null) continue;
    compared++;
    if (fast !== (await prettier.format(JSON.stringify(value), { ...options, parser: "json" }))) {
      mismatches.push({ value, options });
    }
  }
  return { compared, mismatches };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [cases = "2000", seed = "1"] = process.argv.slice(2);
  const { compared, mismatches } = await checkJsonFormatter({ cases: Number(cases), seed: Number(seed) });
  console.log(`formatJsonFast = prettier on ${compared - mismatches.length} of ${compared} JSON values`);
  for (const m of mismatches.slice(0, 3)) console.log(JSON.stringify(m));
  process.exitCode = mismatches.length ? 1 : 0;
}
