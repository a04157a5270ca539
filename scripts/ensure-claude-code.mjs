// Installs Claude Code 2.1.330 (the real CLI the plan usage probe is tested against) into the git-ignored
// .cache/claude-code folder once, and prints the path of its native binary. The npm package's postinstall only
// copies that binary (~360 MB, from the platform package) over a placeholder, so scripts are not run and the
// platform package's binary is used as it is. Exit code 1 when it cannot be installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLAUDE_CODE_VERSION = '2.1.330';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prefix = path.join(root, '.cache', 'claude-code');
const platformPackage = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
const bin = path.join(prefix, 'node_modules', platformPackage, process.platform === 'win32' ? 'claude.exe' : 'claude');

export function ensureClaudeCode() {
  const pkg = path.join(prefix, 'node_modules', platformPackage, 'package.json');
  const installed = fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).version === CLAUDE_CODE_VERSION;
  if (!installed) {
    fs.mkdirSync(prefix, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const args = ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel', 'error'];
    execFileSync(npm, [...args, `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`, `${platformPackage}@${CLAUDE_CODE_VERSION}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 10 * 60_000,
    });
  }
  if (!fs.existsSync(bin)) throw new Error(`Claude Code ${CLAUDE_CODE_VERSION} binary missing at ${bin}`);
  return bin;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    console.log(ensureClaudeCode());
  } catch (err) {
    console.error(`cannot install Claude Code ${CLAUDE_CODE_VERSION}: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
