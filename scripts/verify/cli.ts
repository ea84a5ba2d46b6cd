// npm run verify -- --base-url <console origin> [--team <id> --region <name> --app <id> --component <id>] [--write]
//                   [--json] [--report <file.md>]      (the token in RAINBOND_TOKEN; see docs/verifying-a-console.md)
import { root } from "../lib/script.ts";
import { main } from "./main.ts";

process.exitCode = await main(
  process.argv.slice(2),
  process.env,
  { root },
  {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  },
);
