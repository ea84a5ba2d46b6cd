// Vitest global setup: one Prism mock of generated/openapi.json for the whole run, on a free loopback port.
// Its URL reaches the tests through `inject("prismUrl")`; teardown always stops it (startPrism stops it itself when
// it fails to start).
import type { TestProject } from "vitest/node";
import { startPrism } from "../../scripts/prism.ts";

declare module "vitest" {
  export interface ProvidedContext {
    prismUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const prism = await startPrism();
  project.provide("prismUrl", prism.url);
  return () => prism.stop();
}
