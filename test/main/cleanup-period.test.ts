// Claude Code's cleanupPeriodDays read from a real settings.json in a temp config dir: the default when the file or
// key is missing, the value when it is a positive integer, the default and one line saying why otherwise.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { readCleanupPeriod } from '../../src/main/cleanup-period.ts';
import { tempDir } from '../helpers/jsonl.ts';

const Period = suite('cleanupPeriodDays');

Period('missing, set, and every kind of bad value', () => {
  const tmp = tempDir('cost-period-');
  const write = (text: string) => fs.writeFileSync(path.join(tmp.dir, 'settings.json'), text);
  try {
    assert.equal(readCleanupPeriod(tmp.dir), { days: 30, error: null }, 'no file');
    write('{"theme":"dark"}');
    assert.equal(readCleanupPeriod(tmp.dir), { days: 30, error: null }, 'no key');
    write('{"cleanupPeriodDays": 7}');
    assert.equal(readCleanupPeriod(tmp.dir), { days: 7, error: null });
    for (const [text, why] of [
      ['{"cleanupPeriodDays": 0}', /not a positive integer \(0\)/],
      ['{"cleanupPeriodDays": -1}', /not a positive integer/],
      ['{"cleanupPeriodDays": 2.5}', /not a positive integer/],
      ['{"cleanupPeriodDays": "30"}', /not a positive integer \("30"\)/],
      ['{"cleanupPeriodDays": null}', /not a positive integer/],
      ['{"cleanupPeriodDays": 30', /is not JSON/],
      ['[30]', /is not a JSON object/],
    ] as const) {
      write(text);
      const r = readCleanupPeriod(tmp.dir);
      assert.is(r.days, 30, text);
      assert.match(r.error ?? '', why, text);
      assert.not.match(r.error ?? '', /\n/, 'one line');
    }
    fs.rmSync(path.join(tmp.dir, 'settings.json'));
    fs.mkdirSync(path.join(tmp.dir, 'settings.json'));
    assert.equal(readCleanupPeriod(tmp.dir), { days: 30, error: null }, 'unreadable: the default');
  } finally {
    tmp.cleanup();
  }
});

Period.run();
