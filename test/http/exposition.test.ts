// The exposition writer on its own: a text many pieces long comes out whole, in order, each piece well under V8's
// large-object size, every label value escaped (also when the same value repeats across samples and families).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expositionChunks, type Family } from '../../src/http/exposition.ts';

const test = suite('exposition');

/** A family of n samples read lazily, as GET /metrics gives them; `reads` counts how often it was iterated. */
function family(name: string, n: number, reads: { count: number }): Family {
  return {
    name, help: 'help with a \\ and a\nnewline', type: 'counter',
    samples: {
      *[Symbol.iterator]() {
        reads.count++;
        for (let i = 0; i < n; i++) yield { labels: { project: `p${i % 50}`, name: i % 7 === 0 ? 'say "hi"\\\n' : `model-${i}` }, value: i / 4 };
      },
    },
  };
}

function expected(f: { name: string; n: number }[]): string {
  let text = '';
  for (const { name, n } of f) {
    text += `# HELP ${name} help with a \\\\ and a\\nnewline\n# TYPE ${name} counter\n`;
    for (let i = 0; i < n; i++) text += `${name}{project="p${i % 50}",name="${i % 7 === 0 ? 'say \\"hi\\"\\\\\\n' : `model-${i}`}"} ${i / 4}\n`;
  }
  return text;
}

test('a text of many pieces comes out whole and in order, each piece small', () => {
  const reads = { count: 0 };
  const pieces = [...expositionChunks([family('a_total', 3000, reads), family('b_total', 5, reads), family('c_total', 2000, reads)])];
  assert.ok(pieces.length > 4, `several pieces (${pieces.length})`);
  for (const p of pieces) assert.ok(p.length < 40 * 1024, `a piece of ${p.length} characters`);
  assert.ok(pieces.every((p) => p.endsWith('\n')), 'pieces end at line ends');
  assert.is(pieces.join(''), expected([{ name: 'a_total', n: 3000 }, { name: 'b_total', n: 5 }, { name: 'c_total', n: 2000 }]));
  assert.is(reads.count, 3, 'each family read once');
});

test('a short text is one piece; no samples, only the family lines', () => {
  const reads = { count: 0 };
  assert.equal([...expositionChunks([family('x', 2, reads)])], [expected([{ name: 'x', n: 2 }])]);
  assert.equal([...expositionChunks([family('g', 0, reads)])], [expected([{ name: 'g', n: 0 }])]);
  assert.equal([...expositionChunks([])], []);
});

test.run();
