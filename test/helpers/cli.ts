// The real built command line (dist/main.js <command>, or the installed executable) as a child process. Run
// `npm run build` first.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { DIST_MAIN, ROOT } from './paths.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
}

export interface CliOptions {
  /** Written to stdin, then stdin is closed; null leaves stdin open (a stuck writer). Default: closed at once. */
  input?: string | null;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** The script run: dist/main.js (default) or DIST_BIN, what `cost-dashboard` runs once installed. */
  entry?: string;
}

export function cli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const entry = opts.entry ?? DIST_MAIN;
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const started = Date.now();
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: ROOT,
    // No inherited config dir, index or price settings: each test says what it reads.
    env: { ...process.env, CLAUDE_CONFIG_DIR: '', AGENT_CONFIG_DIR: '', COST_INDEX: '', PRICES_URL: '', COLUMNS: '', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.on('error', () => {}); // a command that exits before reading its input
  if (opts.input !== null) child.stdin.end(opts.input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cost-dashboard ${args.join(' ')} ran over ${opts.timeoutMs ?? 60_000} ms\n${stderr}`));
    }, opts.timeoutMs ?? 60_000);
    // 'close': exited and every output stream drained.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
