// A history of many tiny transcripts, for the memory of the watcher's walk over them (issue 37: 100,000 one-line
// files):
//   node --import tsx bench/many-files.ts DIR [files] [folders]
// writes DIR/projects/<folder>/<session>.jsonl, `files` (default 100,000) one-line transcripts spread over `folders`
// (default 100) project folders, once (an existing DIR is kept). Measure with
//   node --import tsx bench/cold-cpu.ts DIR 1 --after 35
import fs from 'node:fs';
import path from 'node:path';
import { usageLine } from '../test/helpers/jsonl.ts';

const [dir, filesArg, foldersArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node --import tsx bench/many-files.ts DIR [files] [folders]');
  process.exit(2);
}
const files = Number(filesArg ?? 100_000);
const folders = Number(foldersArg ?? 100);
const projects = path.join(dir, 'projects');
if (fs.existsSync(projects)) {
  console.log(`${projects} exists: kept`);
  process.exit(0);
}
const start = Date.UTC(2026, 0, 1);
for (let i = 0; i < files; i++) {
  const folder = path.join(projects, `-home-me-p${i % folders}`);
  if (i < folders) fs.mkdirSync(folder, { recursive: true });
  const session = `s-${String(i).padStart(7, '0')}`;
  const line = usageLine({ sessionId: session, messageId: `m${i}`, requestId: `r${i}`, timestamp: new Date(start + i * 60_000).toISOString(), output: 10 + (i % 50) });
  fs.writeFileSync(path.join(folder, `${session}.jsonl`), `${JSON.stringify(line)}\n`);
}
console.log(`${files} transcripts in ${folders} folders under ${projects}`);
