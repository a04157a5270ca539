// The docs stay readable by their readers (issue 38): README.md for users in at most 200 lines, ARCHITECTURE.md for
// maintainers in at most 400; figures go to bench/RESULTS.md, details to docs/. Every docs/ page the README links exists.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../helpers/paths.ts';

const lines = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8').trimEnd().split('\n').length;

const t = suite('docs lengths and links');

t('README.md <= 200 lines, ARCHITECTURE.md <= 400', () => {
  assert.ok(lines('README.md') <= 200, `README.md has ${lines('README.md')} lines: move detail to a docs/ page`);
  assert.ok(lines('ARCHITECTURE.md') <= 400, `ARCHITECTURE.md has ${lines('ARCHITECTURE.md')} lines: move figures to bench/RESULTS.md`);
});

t('every relative link of README.md, ARCHITECTURE.md and docs/*.md names a file that exists', () => {
  const docs = ['README.md', 'ARCHITECTURE.md', 'bench/RESULTS.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  let links = 0;
  for (const doc of docs) {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      links++;
      assert.ok(fs.existsSync(path.resolve(ROOT, path.dirname(doc), target)), `${doc} links ${target}, which does not exist`);
    }
  }
  assert.ok(links >= 8, `read ${links} links`);
});

t.run();
