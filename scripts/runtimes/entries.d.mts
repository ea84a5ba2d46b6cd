import type { SmokeConfig } from "./smoke.mjs";

export function esmEntry(config: SmokeConfig): string;
export function cjsEntry(config: SmokeConfig): string;
export function edgeBundle(consumerDir: string, config: SmokeConfig, smokePath: string): Promise<string>;
export function browserPage(config: SmokeConfig, importMap: Record<string, string>): string;
