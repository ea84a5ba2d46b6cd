export interface McpToolsFile {
  sensitive: string[];
  tools: {
    tool: {
      name: string;
      title: string;
      description: string;
      inputSchema: { type: "object"; properties: Record<string, object>; required?: string[] };
      outputSchema: { type: "object" };
      annotations: Record<string, string | boolean>;
    };
    operation: { group: string; method: string; effect: string; httpMethod: string; path: string; wrapped: boolean };
  }[];
}
export function mcpTools(spec: object): Promise<McpToolsFile>;
export function mcpToolsJson(spec: object, prettierConfigFile: string): Promise<string>;
export function toolsTable(data: McpToolsFile): string;
export function withToolsTable(markdown: string, data: McpToolsFile): string;
