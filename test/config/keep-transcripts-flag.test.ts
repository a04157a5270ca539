// --keep-transcripts [dir] in the flag parser, and every flag of the parser in --help and the README's options table.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { FLAGS, HELP_TEXT, parseConfig } from '../../src/config/config.ts';
import { ROOT } from '../helpers/paths.ts';

const Flag = suite('--keep-transcripts');
const env = { HOME: '/home/me' };

Flag('off by default; alone: beside the index; with a dir: that dir, before or after other flags', () => {
  assert.is(parseConfig(['--index', '/i/x.db'], env).keepTranscripts, null);
  assert.is(parseConfig(['--index', '/i/x.db', '--keep-transcripts'], env).keepTranscripts, '/i/x.db.transcripts');
  assert.is(parseConfig(['--keep-transcripts', '--index', '/i/x.db'], env).keepTranscripts, '/i/x.db.transcripts');
  assert.is(parseConfig(['--keep-transcripts', '~/kept', '--index', '/i/x.db'], env).keepTranscripts, '/home/me/kept');
  assert.is(parseConfig(['--keep-transcripts=/k'], env).keepTranscripts, '/k');
  assert.throws(() => parseConfig(['--keep-transcripts='], env), /needs a value/);
});

Flag('every flag is in --help and in the README options table, and the commands in --help', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Options'), readme.indexOf('## Command line'));
  for (const name of Object.keys(FLAGS)) {
    assert.ok(HELP_TEXT.includes(`--${name}`), `--${name} in --help`);
    assert.ok(table.includes(`\`--${name}`), `--${name} in the README options table`);
  }
  for (const command of ['backup', 'restore']) assert.ok(HELP_TEXT.includes(command), `${command} in --help`);
});

Flag.run();
