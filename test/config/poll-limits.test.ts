// --poll-limits: minutes 1-1440, off when absent; the flag is the same in the parser, --help and the README's options.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, HELP_TEXT, parseConfig } from '../../src/config/config.ts';
import { ROOT } from '../helpers/paths.ts';
import { tempDir } from '../helpers/jsonl.ts';

const { dir } = tempDir('poll-limits-');
const t = suite('--poll-limits');
const parse = (...argv: string[]) => parseConfig(['--dir', dir, ...argv], { HOME: dir });

t('off by default; minutes when given', () => {
  assert.is(parse().pollLimitsMinutes, null);
  assert.is(parse('--poll-limits', '30').pollLimitsMinutes, 30);
  assert.is(parse('--poll-limits=1440').pollLimitsMinutes, 1440);
});

t('anything but 1-1440 whole minutes is refused', () => {
  for (const bad of ['0', '1441', 'ten', '1.5', '-3']) {
    assert.throws(() => parse(`--poll-limits=${bad}`), (err: unknown) => err instanceof ConfigError && /--poll-limits/.test(err.message), bad);
  }
});

t('--help and the README options table name it', () => {
  assert.match(HELP_TEXT, /--poll-limits <minutes>/);
  assert.match(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), /^\| `--poll-limits <minutes>` \|/m);
});

t.run();
