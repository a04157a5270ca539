export const CLAUDE_CODE_VERSION: string;
/** Installs Claude Code into .cache/claude-code when needed; returns its native binary's path, throws when it cannot be installed. */
export function ensureClaudeCode(): string;
