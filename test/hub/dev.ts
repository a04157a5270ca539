// The conformance hub as a process, as the public hub runs: `npm run dev:hub` (with --open: the
// built dashboard inside it, with the hub's theme and project pickers in its top bar, opened in the
// browser), and the hub tests that end a hub the ways a user does. It stops its apps (SIGTERM, then
// SIGKILL after 3 s) and exits on `q` or end of input on stdin, SIGHUP, SIGTERM and SIGINT.
// Prints one line `Conformance hub running at <hub url>` and one JSON line with the URLs and the app's pid.
// Flags: --open, --index <file> (the app's COST_INDEX). Env: HUB_PORT (default any free port),
// CLAUDE_CONFIG_DIR (default the fixture transcripts).
import { spawn } from 'node:child_process';
import { startHub } from './conformance-hub.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const hub = await startHub({
  port: process.env.HUB_PORT ? Number(process.env.HUB_PORT) : 0,
  ...(process.env.CLAUDE_CONFIG_DIR ? { configDir: process.env.CLAUDE_CONFIG_DIR } : {}),
  ...(flag('--index') ? { env: { COST_INDEX: flag('--index')! } } : {}),
  log: (line) => console.error(`hub: ${line}`),
});
const app = hub.app!;
app.child.stderr?.pipe(process.stderr);
console.log(`Conformance hub running at ${hub.hubUrl} (cost app at ${hub.appUrl})`);
console.log(JSON.stringify({ hubUrl: hub.hubUrl, appUrl: hub.appUrl, appPid: app.child.pid }));

if (args.includes('--open')) {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(opener, [hub.hubUrl], { stdio: 'ignore', detached: true }).on('error', () => {}).unref();
}

let stopping = false;
const stop = (why: string) => {
  if (stopping) return;
  stopping = true;
  console.error(`hub: stopping (${why})`);
  void hub.stop().then(() => process.exit(0));
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGHUP', () => stop('SIGHUP'));
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d: string) => {
  if (d.split('\n').some((l) => l.trim() === 'q')) stop('q');
});
process.stdin.on('end', () => stop('end of input'));
