// What caused usage (issue 32), the fields of /api/insights: Claude Code's own attribution of each assistant line (the
// skill, the MCP server and its tool, the subagent type) and the line's effort. Imports nothing (api-types.ts
// re-exports it), so a row spells its token fields as Totals does.

/**
 * Usage of one cause over the range and scope. `name` null: entries whose lines name none, shown as "direct" (for
 * efforts: no effort given).
 */
export interface CauseCost {
  name: string | null;
  cost: number;
  messages: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}

/** An MCP server's usage, with its tools' (a tool's `name` null: its lines name the server only). */
export interface McpServerCost extends CauseCost {
  tools: CauseCost[];
}

/** Each list holds every entry of the range once, most expensive first, so it adds up to the range's totals. */
export interface CauseBreakdowns {
  bySkill: CauseCost[];
  byMcpServer: McpServerCost[];
  /** By subagent type (`attributionAgent`). */
  byAgent: CauseCost[];
  byEffort: CauseCost[];
}
