// COST_RECHECK_MS sets how often the server lists every folder again and checks every file's cursor (30 s by default):
// the bench runs re-check passes back to back to time requests during them (bench/first-answers.ts). A line appended
// through a second name of a transcript, outside the watched folders, reaches the index only through a re-check
// (inotify reports a write to the folder the writer opened the file through), so once the pass that follows each
// start's walk is over, it shows within the set interval, where the default would take 30 s.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import type { Overview } from '../../src/shared/api-types.ts';
import { appendJsonl, tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { spawnServer, standaloneEnv } from '../helpers/server-process.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

const test = suite('COST_RECHECK_MS');

test('the server re-checks every file at the interval it sets', async () => {
  const { dir, cleanup } = tempDir('cost-recheck-env-');
  const cfg = path.join(dir, 'cfg');
  const file = path.join(cfg, 'projects', '-home-dev-a', 's1.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeJsonl(file, [usageLine({ sessionId: 's1', messageId: 'msg_1', requestId: 'req_1' })]);
  const unseen = path.join(dir, 'same-file.jsonl');
  fs.linkSync(file, unseen);
  const server = await spawnServer({
    args: ['--port', '0', '--dir', cfg, '--index', path.join(dir, 'index.db'), '--offline', '--prices', PRICES_FILE],
    env: standaloneEnv({ TZ: 'UTC', COST_RECHECK_MS: '300' }),
  });
  const messages = async (): Promise<number> => {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/overview?range=all`);
    return ((await res.json()) as Overview).totals.messages;
  };
  try {
    await waitFor(async () => (await messages()) === 1, 'the first line indexed', 10_000);
    // After the walk and the pass that follows it at every start (a moment for one transcript).
    await sleep(2000);
    appendJsonl(unseen, [usageLine({ sessionId: 's1', messageId: 'msg_2', requestId: 'req_2' })]);
    // Well inside the default 30 s: a pass every 300 ms.
    await waitFor(async () => (await messages()) === 2, 'the line appended through the other name, from a re-check', 10_000);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${server.output()}`);
  } finally {
    await server.stop();
    cleanup();
  }
});

test.run();
