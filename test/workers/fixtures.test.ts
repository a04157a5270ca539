// The worker over the real transcripts config dir, checked against a naive reference and ccusage's figures.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readTranscript } from '../../src/workers/parse-transcript.ts';
import { rowsOf } from '../../src/workers/protocol.ts';
import type { UsageRow } from '../../src/workers/protocol.ts';

const CONFIG = path.resolve(import.meta.dirname, '../../../shared/fixtures/transcripts/config');

function jsonlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** The simplest possible count: parse every line, keep those with message.usage and a timestamp. */
function referenceUsageLines(file: string): number {
  let n = 0;
  for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!text.trim()) continue;
    const line = JSON.parse(text) as { message?: { usage?: unknown }; timestamp?: string };
    if (line.message?.usage && line.timestamp) n++;
  }
  return n;
}

const Fixtures = suite('fixtures config dir');
const files = jsonlFiles(CONFIG);
const batches = files.map((f) => readTranscript({ path: f, from: 0, to: fs.statSync(f).size, wantPrompt: true }));

Fixtures('every file is read whole, without bad lines', () => {
  assert.is(files.length, 9);
  batches.forEach((b, i) => {
    assert.is(b.consumedTo, fs.statSync(files[i]!).size, files[i]);
    assert.is(b.stats.malformed, 0, files[i]);
    assert.is(b.stats.giant, 0, files[i]);
  });
});

Fixtures('usage lines match a naive parse of every line', () => {
  let total = 0;
  batches.forEach((b, i) => {
    const expected = referenceUsageLines(files[i]!);
    assert.is(b.stats.usageLines, expected, files[i]);
    total += expected;
  });
  assert.ok(total > 500, `${total} usage lines`);
  // in-batch collapse only drops copies, never a response
  const rows = batches.reduce((s, b) => s + b.rows, 0);
  assert.ok(rows < total && rows > 0);
});

Fixtures('global dedup by messageId + requestId gives ccusage totals (PROVENANCE.md)', () => {
  const best = new Map<string, UsageRow>();
  for (const b of batches) {
    for (const r of rowsOf(b)) {
      const key = `${r.messageId}\0${r.requestId}`;
      const kept = best.get(key);
      if (!kept || r.output > kept.output) best.set(key, r);
    }
  }
  const sum = (k: 'input' | 'output' | 'cacheCreate' | 'cacheRead') => [...best.values()].reduce((s, r) => s + r[k], 0);
  assert.is(sum('output'), 56_945);
  assert.is(sum('input'), 1_792);
  assert.is(sum('cacheCreate'), 1_205_140);
  assert.is(sum('cacheRead'), 12_131_747);
});

Fixtures('sessions, cwd and the earliest timestamp of each file', () => {
  const main = batches[files.findIndex((f) => f.endsWith('967e501d-aa48-4eab-a21f-b17058bd78f0.jsonl'))]!;
  assert.is(main.meta.sessionId, '967e501d-aa48-4eab-a21f-b17058bd78f0');
  assert.is(main.meta.cwd, '/Users/randlee/Documents/github/claude-history');
  batches.forEach((b, i) => {
    const times = fs.readFileSync(files[i]!, 'utf8').split('\n').filter(Boolean)
      .map((l) => (JSON.parse(l) as { timestamp?: string }).timestamp)
      .filter((t) => t !== undefined)
      .map((t) => Date.parse(t));
    assert.is(b.meta.firstTs, Math.min(...times), files[i]);
  });
});

Fixtures.run();
