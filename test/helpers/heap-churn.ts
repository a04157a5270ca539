// A child process for test/main/heap.test.ts: a live set of ~20 MB, then rows built and kept across a few turns of
// the event loop (so scavenges move them to the old generation, as a year's query does), dropped, 12 times over.
// Prints the largest heap it saw, in MB. `tuned` first applies the server's heap setting.
import v8 from 'node:v8';
import { keepHeapNearLive } from '../../src/main/heap.ts';

if (process.argv[2] === 'tuned') keepHeapNearLive();
const live: number[][] = [];
for (let i = 0; i < 200_000; i++) live.push([i, i + 1, i + 2]);
let peak = 0;
for (let round = 0; round < 12; round++) {
  const answer: number[][][] = [];
  for (let part = 0; part < 4; part++) {
    const rows: number[][] = [];
    for (let i = 0; i < 60_000; i++) rows.push([round, i, part, i * 2]);
    answer.push(rows);
    await new Promise((resolve) => setImmediate(resolve));
  }
  peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
}
process.stdout.write(`${JSON.stringify({ peakMb: peak / 1048576, live: live.length })}\n`);
