// Symlinked folders, one rule for the start-up scan and the watcher (discovery.ts TranscriptPaths): links are
// followed, each real file is read once. A link loop in projects/ and a symlinked project folder give the totals
// of a fresh index of the same real files, at start and after appends and a new file while the watcher runs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { startIndexing } from '../helpers/pipeline.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

const allTime = (): QueryScope => ({
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.now(),
});

/** A $4 line with no message id: every copy read counts, so a file read twice shows at once. */
const line = (sessionId: string): string =>
  `${JSON.stringify({ type: 'assistant', sessionId, timestamp: '2026-11-20T10:00:00.000Z', costUSD: 4, message: { model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 10, output_tokens: 1 } } })}\n`;

const start = (projects: string) => startIndexing(projects, { prices: 'builtin' });

const totals = (index: IndexDb) => {
  const o = index.queries.overview(allTime());
  return { cost: o.totals.cost, messages: o.totals.messages, projects: o.projects.map((p) => [p.id, p.cost, p.messages]) };
};

/** The totals of a fresh index over plain copies of the real files (no links anywhere). */
async function freshTotals(files: Record<string, string>): Promise<ReturnType<typeof totals>> {
  const plain = tempDir('cost-plain-');
  try {
    for (const [rel, real] of Object.entries(files)) {
      const to = path.join(plain.dir, 'projects', rel);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(real, to);
    }
    const r = await start(path.join(plain.dir, 'projects'));
    const t = totals(r.index);
    await r.stop();
    return t;
  } finally {
    plain.cleanup();
  }
}

const Links = suite('symlinked folders');

Links('a link loop and a symlinked project folder: each real file read once, at start and live', async () => {
  const tmp = tempDir('cost-links-');
  const projects = path.join(tmp.dir, 'projects');
  const a = path.join(projects, '-home-dev-a');
  const elsewhere = path.join(tmp.dir, 'synced', '-home-dev-b'); // a project folder kept outside, linked in
  fs.mkdirSync(a, { recursive: true });
  fs.mkdirSync(elsewhere, { recursive: true });
  fs.writeFileSync(path.join(a, 's1.jsonl'), line('s1') + line('s1'));
  fs.writeFileSync(path.join(elsewhere, 's2.jsonl'), line('s2'));
  fs.symlinkSync(projects, path.join(a, 'loop')); // projects/-home-dev-a/loop -> projects: a cycle
  fs.symlinkSync('.', path.join(a, 'self'));
  fs.symlinkSync(elsewhere, path.join(projects, '-home-dev-b'));
  fs.symlinkSync(elsewhere, path.join(projects, '-home-dev-c')); // a second link to the same folder
  const loose = path.join(tmp.dir, 'synced', 'loose.jsonl'); // a transcript file linked in on its own
  fs.writeFileSync(loose, line('s4'));
  fs.symlinkSync(loose, path.join(a, 's4.jsonl'));
  const real = (): Record<string, string> => ({
    '-home-dev-a/s1.jsonl': path.join(a, 's1.jsonl'),
    '-home-dev-a/s4.jsonl': loose,
    ...Object.fromEntries(fs.readdirSync(elsewhere).map((f) => [`-home-dev-b/${f}`, path.join(elsewhere, f)])),
  });
  const r = await start(projects);
  try {
    const first = totals(r.index);
    assert.equal(first, await freshTotals(real()));
    assert.equal(first.messages, 4);
    assert.is(first.cost, 16);

    // live: appends through the real paths, and a new file in the linked folder
    fs.appendFileSync(path.join(a, 's1.jsonl'), line('s1'));
    fs.appendFileSync(path.join(elsewhere, 's2.jsonl'), line('s2'));
    fs.writeFileSync(path.join(elsewhere, 's3.jsonl'), line('s3'));
    fs.appendFileSync(loose, line('s4'));
    await waitFor(() => totals(r.index).messages >= 8, 'the appended lines and the new file', 10_000);
    await sleep(600); // later copies through other paths would land by now
    const live = totals(r.index);
    assert.equal(live, await freshTotals(real()));
    assert.is(live.cost, 32);
  } finally {
    await r.stop();
    tmp.cleanup();
  }
});

Links.run();
