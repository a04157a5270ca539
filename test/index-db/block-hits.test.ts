// A 5-hour block that ended in a plan limit hit says so (issue 33): real-shaped transcript lines (a session hit, a
// weekly hit after it in the same block, a server throttle that is no hit, the 2025 form) read by the real pipeline
// into a real index file; the blocks of /api/insights carry the block's first hit, and `cost-dashboard blocks --json`
// (the built command line) adds it as `limitHit` to the blocks that have one only, ccusage's shape otherwise unchanged.
process.env.TZ = 'UTC';

import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRange } from '../../src/http/params.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { hitLine, throttleLine } from '../helpers/limit-lines.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';

const H = 3_600_000;
const T0 = Date.UTC(2026, 4, 4, 8, 0);
const NOW = Date.UTC(2026, 4, 8);
const at = (ms: number): string => new Date(ms).toISOString();
const use = (i: number, ms: number, sessionId = 'sess-a') =>
  usageLine({ sessionId, messageId: `msg_${i}`, requestId: `req_${i}`, timestamp: at(ms), model: 'claude-sonnet-4-5-20250929', output: 100 });

const { dir, cleanup } = tempDir('block-hits-');
const config = path.join(dir, 'config');
const root = path.join(config, 'projects', '-home-u-proj');
// Block 1, 08:00-13:00: work, a throttle, the session limit, then the weekly one. Block 2, 14:00-19:00: no hit.
// Block 3 (a day later): the 2025 form, which names no window and gives its reset as epoch seconds.
writeJsonl(path.join(root, 'sess-a.jsonl'), [
  use(1, T0 + 10 * 60_000),
  throttleLine(T0 + H),
  use(2, T0 + 2 * H),
  hitLine("You've hit your session limit · resets 1pm (UTC)", T0 + 3.5 * H, { sessionId: 'sess-a', id: 'msg_hit1' }),
  hitLine("You've hit your weekly limit · resets May 7, 10am (Europe/Berlin)", T0 + 4 * H, { sessionId: 'sess-a', id: 'msg_hit2' }),
  use(3, T0 + 6.2 * H),
  use(4, T0 + 7 * H),
]);
writeJsonl(path.join(root, 'sess-b.jsonl'), [
  use(5, T0 + 24 * H, 'sess-b'),
  hitLine('Claude AI usage limit reached|1778000000', T0 + 26 * H, { sessionId: 'sess-b', id: 'msg_hit3', error: undefined, status: undefined }),
]);
const file = path.join(dir, 'index.db');

const t = suite('blocks that ended in a limit hit');

t.after(() => cleanup());

t('the blocks of /api/insights carry the first hit inside them', async () => {
  const index = await indexDir(path.dirname(root), { file });
  try {
    const blocks = index.queries.insights({ range: parseRange({}, 'all', NOW), project: null, now: NOW }).blocks;
    assert.equal(blocks.map((b) => [b.start, b.limitHit]), [
      [at(T0 + 24 * H), { at: at(T0 + 26 * H), window: null, resetsAt: at(1778000000 * 1000) }],
      [at(T0 + 6 * H), null],
      [at(T0), { at: at(T0 + 3.5 * H), window: 'five_hour', resetsAt: at(T0 + 5 * H) }],
    ]);
  } finally {
    index.close();
  }
});

t('cost-dashboard blocks --json adds limitHit to the blocks a hit stopped, and nothing to the others', async () => {
  const r = await cli(['blocks', '--json', '--dir', config, '--index', file, '--prices', PRICES_FILE, '--cost-mode', 'calculate', '--timezone', 'UTC'],
    { env: { TZ: 'UTC' }, timeoutMs: 60_000 });
  assert.is(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { blocks: Record<string, unknown>[] };
  const real = out.blocks.filter((b) => b.isGap === false);
  assert.equal(real.map((b) => [b.startTime, b.limitHit ?? 'absent']), [
    [at(T0), { at: at(T0 + 3.5 * H), window: 'five_hour', resetsAt: at(T0 + 5 * H) }],
    [at(T0 + 6 * H), 'absent'],
    [at(T0 + 24 * H), { at: at(T0 + 26 * H), window: null, resetsAt: at(1778000000 * 1000) }],
  ]);
  assert.ok(out.blocks.filter((b) => b.isGap === true).every((b) => !('limitHit' in b)), 'gap entries keep their shape');
  assert.equal(Object.keys(real[1]!), ['id', 'startTime', 'endTime', 'actualEndTime', 'isActive', 'isGap', 'entries', 'tokenCounts', 'totalTokens',
    'costUSD', 'models', 'burnRate', 'projection'], 'ccusage\'s keys alone');
});

t.run();
