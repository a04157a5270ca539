// Housekeeping commands (issue 36): slash commands that tend the session (clear it, switch the model, show the cost)
// rather than ask for work. One is a session's title only while no prompt follows it. One list for the parse worker,
// which keeps looking for a later prompt, and the writer, which lets that prompt replace a stored housekeeping one.
// Commands that do work (/init, /review, a plugin's own commands) are prompts like any other.
const COMMANDS = new Set([
  'add-dir', 'agents', 'bashes', 'bug', 'clear', 'compact', 'config', 'context', 'cost', 'doctor', 'exit', 'export',
  'feedback', 'help', 'hooks', 'ide', 'login', 'logout', 'mcp', 'memory', 'model', 'output-style', 'permissions',
  'plugin', 'privacy-settings', 'quit', 'release-notes', 'resume', 'rewind', 'stats', 'status', 'statusline',
  'terminal-setup', 'theme', 'todos', 'upgrade', 'usage', 'vim',
]);

/** True for a prompt (as extractPrompt writes it: "/name args") that is a housekeeping command, whatever its args. */
export function isHousekeeping(prompt: string): boolean {
  if (!prompt.startsWith('/')) return false;
  const end = prompt.search(/\s/);
  return COMMANDS.has(prompt.slice(1, end < 0 ? undefined : end).toLowerCase());
}
