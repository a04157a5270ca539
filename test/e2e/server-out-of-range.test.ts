// Hostile numbers through the real built server (dist/main.js as a child process, a real SQLite file): usage
// lines with counts, costs or timestamps no real request can have are skipped and counted, and every data route
// answers what a fresh index of the good lines alone answers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { Insights, Overview, ProjectRow } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { tempDir } from '../helpers/jsonl.ts';

const day = new Date(Date.now() - 3_600_000).toISOString(); // an hour ago: inside every range, today included

let n = 0;
function line(usage: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  n++;
  return JSON.stringify({
    type: 'assistant',
    sessionId: 's1',
    cwd: '/home/dev/alpha',
    timestamp: day,
    requestId: `req_${n}`,
    message: { id: `msg_${n}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 100, ...usage } },
    ...extra,
  });
}

const good = [line({}), line({ cache_read_input_tokens: 5000 }), line({}, { costUSD: 0.5 })];
const hostile = [
  // the attack of the issue: two lines of 5e18 input tokens overflowed SQLite's integer sums
  line({ input_tokens: 5e18 }),
  line({ input_tokens: 5e18 }),
  // 1e308 made every total null; 2^53 and 1e30 added $5.4e10 and $1.2e25
  line({ output_tokens: 1e308 }),
  line({}, { costUSD: 1e308 }),
  line({ cache_creation_input_tokens: 2 ** 53 }),
  line({ cache_read_input_tokens: 1e30 }),
  line({}, { costUSD: -3 }),
  // a numeric timestamp of 1e20 (no calendar day) and one before 2000
  line({}, { timestamp: 1e20 }),
  line({}, { timestamp: '1970-01-01T00:00:00.000Z' }),
];

function writeProjects(dir: string, lines: string[]): void {
  const file = path.join(dir, 'projects', '-home-dev-alpha', 's1.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

interface Answers {
  overview: Overview;
  projects: ProjectRow[];
  insights: Insights;
}

async function answers(server: AppServer): Promise<Answers> {
  await untilIndexed(server, 20_000);
  return {
    overview: await getJson<Overview>(server, '/api/overview?range=7'),
    projects: await getJson<ProjectRow[]>(server, '/api/projects'),
    insights: await getJson<Insights>(server, '/api/insights?range=7'),
  };
}

const Range = suite('out-of-range numbers');

Range('are skipped and counted; overview, projects and insights answer the totals of the good lines', async () => {
  const bad = tempDir('cost-range-bad-');
  const clean = tempDir('cost-range-clean-');
  // hostile lines first, between and after the good ones
  writeProjects(bad.dir, [hostile[0]!, good[0]!, ...hostile.slice(1, 5), good[1]!, ...hostile.slice(5), good[2]!]);
  writeProjects(clean.dir, good);
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: bad.dir });
    const got = await answers(server);
    const out = server.output();
    await server.close();
    server = await startAppServer({ dir: clean.dir });
    const want = await answers(server);

    assert.is(want.overview.totals.messages, 3);
    assert.equal(got.overview.totals, want.overview.totals);
    assert.equal(got.overview.today, want.overview.today);
    assert.equal(got.overview.costByModel, want.overview.costByModel);
    assert.equal(got.projects, want.projects);
    assert.equal(got.insights.tokenComposition, want.insights.tokenComposition);
    assert.equal(got.insights.blocks.map((b) => [b.cost, b.totalTokens]), want.insights.blocks.map((b) => [b.cost, b.totalTokens]));
    assert.ok(Number.isFinite(got.overview.totals.cost) && got.overview.totals.cost < 1, `cost ${got.overview.totals.cost}`);

    assert.equal(got.overview.health.skipped, { malformed: 0, outOfRange: hostile.length, oversized: 0, unreadableFiles: 0, unreadableFolders: 0 });
    assert.equal(want.overview.health.skipped, { malformed: 0, outOfRange: 0, oversized: 0, unreadableFiles: 0, unreadableFolders: 0 });
    assert.match(out, new RegExp(`skipped ${hostile.length} lines \\(${hostile.length} out of range\\) in .*s1\\.jsonl`));
  } finally {
    await server?.close();
    bad.cleanup();
    clean.cleanup();
  }
});

Range.run();
