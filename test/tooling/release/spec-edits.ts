// Spec changes a maintainer makes, as edits of spec/ files in a repository (a temporary one: temp-repo.ts), for the
// release tests: each fails loudly when the text it edits is not there any more.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Replaces text in a file of the repository, failing when the text is not there. */
export async function replaceIn(dir: string, file: string, from: string | RegExp, to: string): Promise<void> {
  const path = join(dir, file);
  const text = await readFile(path, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file}: nothing matches ${from}`);
  await writeFile(path, next);
}

/** Breaking: Port loses `k8s_service_name` (schema and response examples). */
export async function removePortField(dir: string): Promise<void> {
  await replaceIn(dir, "spec/components/schemas/Port.yaml", ", k8s_service_name]", "]");
  await replaceIn(dir, "spec/components/schemas/Port.yaml", /\n {2}k8s_service_name:\n(?: {4}.*\n)+/, "\n");
  for (const file of ["spec/paths/ports.yaml", "spec/paths/port.yaml"]) {
    await replaceIn(dir, file, /\n +k8s_service_name: gr3f9c2a-\d+/g, "");
  }
}

/** Additive: Port gains an optional `is_public` the source does not name, marked x-since; the list example has it. */
export async function addPortField(dir: string): Promise<void> {
  await replaceIn(
    dir,
    "spec/components/schemas/Port.yaml",
    /\nproperties:\n/,
    [
      "",
      "properties:",
      "  is_public:",
      "    type: boolean",
      "    description: Whether the port is reachable from outside the cluster.",
      '    x-since: "6.1.0"',
      "",
    ].join("\n"),
  );
  await replaceIn(
    dir,
    "spec/paths/ports.yaml",
    "- container_port: 8080\n",
    "- container_port: 8080\n              is_public: true\n",
  );
}

/** Docs only: a description of Port is reworded. */
export const rewordPortDescription = (dir: string) =>
  replaceIn(
    dir,
    "spec/components/schemas/Port.yaml",
    "description: Port number.",
    "description: The port the component listens on.",
  );
