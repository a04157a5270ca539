// A process killed between writing `<index>.<name>.<pid>.tmp` and renaming it leaves that file behind. The process
// that takes the writer's lock removes those of processes that are gone, and only those: a live process's temp file
// (it may be writing it now), another index's, and the kept files themselves stay. Checked on the function, and
// through the real command line (its `update` is the writer) and the real server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sweepLeftoverTemps } from '../../src/ingest/leftover-temps.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { FIXTURE_CONFIG_DIR, PRICES_FILE } from '../helpers/paths.ts';
import { spawnServer } from '../helpers/server-process.ts';

const test = suite('leftover temp files beside the index');

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  assert.ok(r.pid && r.status === 0);
  return r.pid;
}

function layout(dir: string, dead: number): { gone: string[]; kept: string[] } {
  const at = (name: string): string => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, 'x');
    return p;
  };
  return {
    gone: [at(`index.db.listing.json.${dead}.tmp`), at(`index.db.prices.json.${dead}.tmp`)],
    kept: [
      at('index.db.listing.json'),
      at(`index.db.listing.json.${process.pid}.tmp`),
      at(`other.db.listing.json.${dead}.tmp`),
      at(`index.db.listing.json.${dead}.tmp.bak`),
    ],
  };
}

test("removes a gone process's temp files of this index, nothing else", () => {
  const { dir, cleanup } = tempDir('leftovers-');
  try {
    const { gone, kept } = layout(dir, deadPid());
    assert.is(sweepLeftoverTemps(path.join(dir, 'index.db')), 2);
    for (const p of gone) assert.not.ok(fs.existsSync(p), `${p} removed`);
    for (const p of kept) assert.ok(fs.existsSync(p), `${p} kept`);
    assert.is(sweepLeftoverTemps(path.join(dir, 'index.db')), 0);
  } finally {
    cleanup();
  }
});

test('a missing folder is nothing to sweep', () => {
  assert.is(sweepLeftoverTemps('/nonexistent-cost-dashboard/index.db'), 0);
});

test('the command line, as the writer, sweeps them', async () => {
  const { dir, cleanup } = tempDir('leftovers-cli-');
  try {
    const { gone, kept } = layout(dir, deadPid());
    const index = path.join(dir, 'index.db');
    const r = await cli(['update', '--dir', FIXTURE_CONFIG_DIR, '--index', index, '--prices', PRICES_FILE], { env: { TZ: 'UTC' } });
    assert.is(r.code, 0, r.stderr);
    for (const p of gone) assert.not.ok(fs.existsSync(p), `${p} removed`);
    for (const p of kept) assert.ok(fs.existsSync(p), `${p} kept`);
  } finally {
    cleanup();
  }
});

test('the server, as the writer, sweeps them once it has the index', async () => {
  const { dir, cleanup } = tempDir('leftovers-server-');
  try {
    const { gone, kept } = layout(dir, deadPid());
    const index = path.join(dir, 'index.db');
    const server = await spawnServer({ args: ['--port', '0', '--dir', FIXTURE_CONFIG_DIR, '--index', index, '--prices', PRICES_FILE] });
    try {
      // The ready line comes after the index is opened.
      for (const p of gone) assert.not.ok(fs.existsSync(p), `${p} removed`);
      for (const p of kept) assert.ok(fs.existsSync(p), `${p} kept`);
    } finally {
      await server.stop();
    }
  } finally {
    cleanup();
  }
});

test.run();
