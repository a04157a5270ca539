// `npm run dev:hub`: runs the built dashboard inside the conformance hub, with the hub's theme and
// project pickers in its top bar, and opens it in the browser. Ctrl+C stops the hub and the app.
// Env: HUB_PORT (default any free port), AGENT_CONFIG_DIR (default the fixture transcripts).
import { spawn } from 'node:child_process';
import { startHub } from './conformance-hub.ts';

const hub = await startHub({
  port: process.env.HUB_PORT ? Number(process.env.HUB_PORT) : 0,
  ...(process.env.AGENT_CONFIG_DIR ? { configDir: process.env.AGENT_CONFIG_DIR } : {}),
});
const app = hub.app!;
app.child.stderr?.pipe(process.stderr);
console.log(`Conformance hub running at ${hub.hubUrl} (cost app at ${hub.appUrl})`);

const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
spawn(opener, [hub.hubUrl], { stdio: 'ignore', detached: true }).on('error', () => {}).unref();

const stop = () => void hub.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
app.exited.then((code) => {
  console.error(`cost app exited (${code})`);
  void hub.stop().then(() => process.exit(1));
});
