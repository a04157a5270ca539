// The writer alone, on one thread: `node --import tsx bench/writer-cpu.ts DIR` parses every transcript of DIR
// in-process first (not timed; folded for each file's role and the writer's zone, as the pool's workers do), then applies the batches to a fresh index in scan order and prints the CPU that
// takes: the main thread's (which does all the writing, from /proc) and the process's (GC helpers included). Run it
// with --cpu-prof to see where the serial part goes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileRoles, listTranscripts } from '../src/ingest/discovery.ts';
import { PRICES_FILE } from '../test/helpers/paths.ts';
import { openIndex } from '../src/index-db/index.ts';
import { PriceTable } from '../src/pricing/table.ts';
import { readTranscript } from '../src/workers/parse-transcript.ts';
import { threadCpu } from './thread-cpu.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/writer-cpu.ts DIR');
const projects = path.join(dir, 'projects');
const files = await listTranscripts([projects]);
const roles = fileRoles([projects]);
const catalogue: unknown = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-writer-'));
try {
  const index = openIndex(path.join(work, 'index.db'), { log: () => {} });
  const zone = index.foldZone();
  const batches = [];
  for (const f of files) {
    const role = roles.of(f.path);
    if (!role) continue;
    const fold = zone !== null ? { session: role.session, agentId: role.agentId, zone } : undefined;
    const batch = readTranscript({ path: f.path, from: 0, to: f.size, wantPrompt: true, fold, agentMeta: role.agentId !== null });
    batches.push({ batch, role: { ...role, agentType: batch.agent?.agentType ?? null, agentDescription: batch.agent?.agentDescription ?? null }, f });
  }
  index.setPrices(PriceTable.fromCatalogue(catalogue, 'bench'));
  const c0 = process.cpuUsage();
  const main0 = threadCpu(process.pid).mainMs;
  const t = performance.now();
  for (const { batch, role, f } of batches) index.applyBatch(batch, role, f.size, f.mtimeMs);
  index.commit();
  const cpu = process.cpuUsage(c0);
  const mainMs = threadCpu(process.pid).mainMs - main0;
  console.log(`${batches.length} batches, ${batches.reduce((n, b) => n + b.batch.rows, 0)} rows: ` +
    `${(performance.now() - t).toFixed(0)} ms wall, main thread ${mainMs} ms CPU, process ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU ` +
    `(${(cpu.system / 1000).toFixed(0)} ms system)`);
  index.close();
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
