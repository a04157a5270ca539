// src/calendar is shared by the server and the dashboard bundle: it imports only its own files and touches neither
// Node nor the DOM, so both can load it.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const dir = path.resolve(import.meta.dirname, '../../src/calendar');
const test = suite('calendar module');

test('imports only its own files, and uses no Node or DOM globals', () => {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length >= 5, files.join(', '));
  for (const f of files) {
    // Code only: comments name windows and processes in words.
    const src = fs.readFileSync(path.join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    for (const [, spec] of src.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)) assert.match(spec!, /^\.\/[a-z-]+\.ts$/, `${f} imports ${spec}`);
    for (const name of ['process', 'Buffer', 'require', 'window', 'document', 'navigator', 'localStorage', 'globalThis']) {
      assert.not.match(src, new RegExp(`\\b${name}\\s*[.([]`), `${f} uses ${name}`);
    }
  }
});

test.run();
