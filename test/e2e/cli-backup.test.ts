// Issue 34: `cost-dashboard backup` and `restore` through the real built command line, beside a real server that
// appends. A backup taken while lines arrive opens, passes PRAGMA integrity_check and holds the totals of one moment
// (a prefix of the appended lines, its rollups agreeing with its rows); the API notes it; a target that exists or
// cannot be written is one line; --keep N rotates; restore refuses a newer index unless --force.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { Retention } from '../../src/shared/retention-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { cli } from '../helpers/cli.ts';
import { appendJsonl, tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';
import { openKeyed } from '../helpers/sqlite.ts';

const Backup = suite('backup and restore');

/** The i-th appended line costs i cents, so any prefix of n lines sums to n(n+1)/2 cents. */
const line = (i: number) =>
  usageLine({ sessionId: 's1', messageId: `m${i}`, requestId: `r${i}`, timestamp: new Date(Date.now() - 3600_000 + i * 10).toISOString(), extra: { costUSD: i / 100 } });

function figures(file: string) {
  const db = openKeyed(file, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      ids: (db.prepare("SELECT unpack_key(stored_key) FROM messages ORDER BY ts").pluck().all() as string[]).map((k) => Number(/^rm(\d+) /.exec(k)![1])),
      cost: db.prepare('SELECT total(cost) FROM messages').pluck().get() as number,
      rollupCost: db.prepare('SELECT total(cost) FROM usage_total').pluck().get() as number,
      rollupMessages: db.prepare('SELECT total(messages) FROM usage_total').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

Backup('a backup taken while a server appends is whole and of one moment; noted in the API; bad targets; --keep; restore', async () => {
  const tmp = tempDir('cost-backup-');
  const cfg = path.join(tmp.dir, 'claude');
  const transcript = path.join(cfg, 'projects', '-home-dev-alpha', 's1.jsonl');
  writeJsonl(transcript, [line(1)]);
  const index = path.join(tmp.dir, 'index.db');
  const backups = path.join(tmp.dir, 'backups');
  fs.mkdirSync(backups);
  let server: AppServer | null = null;
  let appending = true;
  try {
    server = await startAppServer({ dir: cfg, indexFile: index });
    await untilIndexed(server, 15_000);
    let n = 1;
    const appender = (async () => {
      while (appending) {
        appendJsonl(transcript, [line(++n)]);
        await new Promise((r) => setTimeout(r, 15));
      }
    })();
    await waitFor(() => figures(index).ids.length >= 20, 'the server indexing appended lines', 15_000);
    const target = path.join(backups, 'index-backup.db');
    const r = await cli(['backup', target, '--dir', cfg, '--index', index]);
    await waitFor(() => n > figures(target).ids.length + 5, 'more lines after the backup', 10_000);
    appending = false;
    await appender;
    assert.is(r.code, 0, r.stderr);
    const printed = JSON.parse(r.stdout) as { path: string; messages: number; cost: number };
    const f = figures(target);
    assert.is(f.integrity, 'ok');
    const k = f.ids.length;
    assert.ok(k >= 20, `${k} entries`);
    assert.equal(f.ids, Array.from({ length: k }, (_, i) => i + 1), 'the entries of one moment: the first k lines, none missing');
    assert.ok(Math.abs(f.cost - (k * (k + 1)) / 200) < 1e-9, `cost ${f.cost} for ${k} lines`);
    assert.ok(Math.abs(f.rollupCost - f.cost) < 1e-9 && f.rollupMessages === k, 'the rollups are of the same moment');
    assert.equal([printed.path, printed.messages], [target, k]);
    assert.ok(Math.abs(printed.cost - f.cost) < 1e-9);

    const api = await getJson<Retention>(server, '/api/retention');
    assert.is(api.backup?.path, target);
    assert.ok(Math.abs(Date.parse(api.backup!.lastAt) - Date.now()) < 60_000);

    // A target that exists, or cannot be written: one line, exit 1, nothing touched.
    const before = fs.statSync(target).mtimeMs;
    const again = await cli(['backup', target, '--dir', cfg, '--index', index]);
    assert.is(again.code, 1);
    assert.match(again.stderr, /exists/);
    assert.is(again.stderr.trim().split('\n').length, 1);
    assert.is(fs.statSync(target).mtimeMs, before);
    const nowhere = await cli(['backup', path.join(tmp.dir, 'no-such-dir', 'b.db'), '--dir', cfg, '--index', index]);
    assert.is(nowhere.code, 1);
    assert.match(nowhere.stderr, /^cost-dashboard: cannot back up to .*no-such-dir/);
    assert.is((await cli(['backup', '--dir', cfg, '--index', index])).code, 2, 'no file is bad input');
    assert.is((await cli(['backup', target, '--keep', '0', '--dir', cfg, '--index', index])).code, 2);

    // --keep 2: dated files beside the name, the two newest stay.
    const base = path.join(backups, 'rot.db');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const x = await cli(['backup', base, '--keep', '2', '--dir', cfg, '--index', index]);
      assert.is(x.code, 0, x.stderr);
      made.push((JSON.parse(x.stdout) as { path: string }).path);
    }
    assert.equal(fs.readdirSync(backups).filter((f) => f.startsWith('rot-')).sort(), made.slice(1).map((p) => path.basename(p)));
    fs.writeFileSync(path.join(backups, 'rot-notes.db'), 'not ours');
    assert.is((await cli(['backup', base, '--keep', '1', '--dir', cfg, '--index', index])).code, 0);
    assert.ok(fs.existsSync(path.join(backups, 'rot-notes.db')), 'rotation removes only its own dated files');

    // Restore: refused while the server writes; then refused as the index is newer; --force replaces it.
    const busy = await cli(['restore', target, '--dir', cfg, '--index', index]);
    assert.is(busy.code, 1);
    assert.match(busy.stderr, /writes .*stop it/);
    await server.close();
    server = null;
    const all = figures(index).ids.length;
    const refused = await cli(['restore', target, '--dir', cfg, '--index', index]);
    assert.is(refused.code, 1);
    assert.match(refused.stderr, /is newer than .*--force/);
    assert.is(figures(index).ids.length, all, 'the index is untouched');
    const forced = await cli(['restore', target, '--force', '--dir', cfg, '--index', index]);
    assert.is(forced.code, 0, forced.stderr);
    assert.equal(figures(index).ids, f.ids, 'the index is the backup');
    const aside = fs.readdirSync(tmp.dir).find((x) => x.startsWith('index.db.before-restore-') && !x.endsWith('-wal') && !x.endsWith('-shm'));
    assert.ok(aside, 'the replaced index is kept');
    assert.is(figures(path.join(tmp.dir, aside!)).ids.length, all);
    // An older index is replaced without --force; a file that is no index is refused.
    fs.writeFileSync(path.join(tmp.dir, 'junk.db'), 'no database');
    const junk = await cli(['restore', path.join(tmp.dir, 'junk.db'), '--dir', cfg, '--index', index]);
    assert.is(junk.code, 1);
    assert.match(junk.stderr, /not a readable cost-dashboard index/);
    assert.equal(figures(index).ids, f.ids);
    // Onto a machine with no index yet: nothing to keep aside, nothing to refuse.
    const fresh = path.join(tmp.dir, 'fresh', 'index.db');
    fs.mkdirSync(path.dirname(fresh));
    const onto = await cli(['restore', target, '--dir', cfg, '--index', fresh]);
    assert.is(onto.code, 0, onto.stderr);
    assert.equal(figures(fresh).ids, f.ids);
    assert.equal(fs.readdirSync(path.dirname(fresh)).filter((x) => x.includes('before-restore')), []);
    const help = await cli(['backup', '--help']);
    assert.is(help.code, 0);
    assert.match(help.stdout, /^Usage: cost-dashboard backup <file> \[--keep N\]/);
  } finally {
    appending = false;
    await server?.close();
    tmp.cleanup();
  }
});

Backup.run();
