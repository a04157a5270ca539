// The parse floor of a cold index: the server's own worker pool parses every byte of the corpus, as the
// start-up scan does, but nothing is written. A cold index cannot finish faster than this on the same machine,
// whatever the writer does, so it tells how much of the cold time is the index and how much is parsing.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { listTranscripts } from '../src/ingest/discovery.ts';
import { createPool } from '../src/ingest/pool.ts';

export interface ParseFloor {
  ms: number;
  lines: number;
  usageLines: number;
  rows: number;
}

/** `worker`: the built parse worker (dist/parse-worker.js), the code the server runs. */
export async function parseFloor(configDirs: string[], worker: string): Promise<ParseFloor> {
  const files = await listTranscripts(configDirs.map((d) => path.join(d, 'projects')));
  const t = performance.now(); // the pool's start-up counts, as it does in the server
  const pool = createPool({ worker: pathToFileURL(worker).href, execArgv: [] }); // plain Node, as in the server
  try {
    const batches = await Promise.all(files.map((f) => pool.parse({ path: f.path, from: 0, to: f.size, wantPrompt: true })));
    const ms = performance.now() - t;
    let lines = 0;
    let usageLines = 0;
    let rows = 0;
    for (const b of batches) {
      lines += b.stats.lines;
      usageLines += b.stats.usageLines;
      rows += b.rows;
    }
    return { ms, lines, usageLines, rows };
  } finally {
    await pool.close();
  }
}
