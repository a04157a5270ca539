// Issue 36: a session's models are listed by their cost in it, so the model that costs the money comes first (they were
// alphabetical: a session 85 % sonnet read "haiku-4-5, opus-4-1 +3").
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ProjectSessions } from '../../src/shared/api-types.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const PROJECT = '-home-dev-models';
let s: TestServer;
const t = suite('models by cost');
t.before(async () => {
  s = await startServer();
  const ts = new Date(Date.now() - 3_600_000).toISOString();
  const lines = [
    ['claude-haiku-4-5-20251001', 1],
    ['claude-sonnet-4-5-20250929', 85],
    ['claude-opus-4-1-20250805', 9],
    ['claude-haiku-4-5-20251001', 2],
  ].map(([model, usd], i) => usageLine({ sessionId: 's1', model: model as string, messageId: `m${i}`, requestId: `r${i}`, timestamp: ts, extra: { costUSD: usd } }));
  const file = writeJsonl(path.join(s.config.projectsDirs[0]!, PROJECT, 's1.jsonl'), lines);
  ingestFile(s.index, file, sessionRole(PROJECT, 's1'));
});
t.after(() => s.close());

t('the dearest model first', async () => {
  const r = await s.request(`/api/projects/${PROJECT}/sessions?range=all`);
  assert.is(r.status, 200, r.text);
  assert.equal(r.json<ProjectSessions>().sessions[0]!.models, ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001']);
});

t.run();
