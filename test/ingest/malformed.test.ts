// Bad input through the whole pipeline: nothing a config dir holds may stop the rest from being indexed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { QueryScope } from '../../src/index-db/types.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { indexDir } from '../helpers/pipeline.ts';

const allTime: QueryScope = {
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.UTC(2026, 10, 22),
};

const usage = (i: number): string =>
  JSON.stringify({
    type: 'assistant',
    sessionId: 'good',
    timestamp: '2026-11-20T10:00:00.000Z',
    requestId: `req_${i}`,
    message: { id: `msg_${i}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 100 } },
  });

const Malformed = suite('malformed input');

Malformed('garbage, a 20 MB line, binary junk, empty and unreadable files are skipped and counted', async () => {
  const { dir, cleanup } = tempDir('cost-bad-');
  const project = path.join(dir, 'projects', '-home-dev-bad');
  fs.mkdirSync(project, { recursive: true });
  try {
    // A valid usage line of 20 MB (a big tool input): counted like any other.
    const giant = usage(3).replace('"usage":', `"content":[{"type":"text","text":"${'x'.repeat(20 * 1024 * 1024)}"}],"usage":`);
    const outOfRange = usage(4).replace('"input_tokens":1000', '"input_tokens":5e18');
    fs.writeFileSync(
      path.join(project, 'good.jsonl'),
      [usage(1), 'not json at all {"usage"', '', '{"message":{"usage":{"input_tokens":5}}}', giant, '[1,2,3]', 'null', outOfRange, usage(2), ''].join('\n'),
    );
    // Binary junk with a usage marker in it, so it reaches the parser.
    const junk = Buffer.concat([Buffer.from([0, 255, 254, 10, 7, 0]), Buffer.from('"usage"\u0000\u0001\n'), Buffer.alloc(4096, 0xab), Buffer.from('\n')]);
    fs.writeFileSync(path.join(project, 'junk.jsonl'), junk);
    fs.writeFileSync(path.join(project, 'empty.jsonl'), '');
    // A transcript that cannot be read even by root: a symlink pointing at itself.
    fs.symlinkSync('loop.jsonl', path.join(project, 'loop.jsonl'));

    const logs: string[] = [];
    const index = await indexDir(path.join(dir, 'projects'), { prices: 'builtin', log: (m) => logs.push(m) });

    const good = index.queries.session('good', allTime);
    assert.ok(good, 'the good lines are indexed');
    assert.is(good.messageCount, 3);
    assert.is(good.inputTokens, 3000);
    const stats = index.stats();
    assert.is(stats.giant, 0, 'the 20 MB line is not skipped for its size');
    assert.is(stats.outOfRange, 1, 'the 5e18 line is skipped and counted');
    assert.ok(stats.malformed >= 3, `garbage, the usage-less message and junk are counted as malformed (${stats.malformed})`);
    assert.ok(stats.blank >= 1, 'blank lines are counted');
    assert.is(stats.unreadable, 1, 'the unreadable file is counted');
    assert.ok(logs.some((l) => l.includes('loop.jsonl')), 'the unreadable file is named in the log');
    const skipped = logs.filter((l) => l.startsWith('skipped '));
    assert.ok(skipped.some((l) => /^skipped \d+ lines \(\d+ malformed, 1 out of range\) in .*good\.jsonl$/.test(l)), skipped.join(' | '));
    assert.ok(skipped.some((l) => l.endsWith('junk.jsonl')), 'one line per file that skipped something');
    assert.is(skipped.length, 2, `no line for files that skipped nothing: ${skipped.join(' | ')}`);
    index.close();
  } finally {
    cleanup();
  }
});

Malformed.run();
