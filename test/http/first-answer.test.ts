// DashboardServer.firstAnswer (a restart's scan waits for it): resolved by the first API answer sent, not by the
// page's static files, over a real server on loopback.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../helpers/server.ts';

test('resolves once the first API answer has been sent, not before, and not for a static file', async () => {
  const s = await startServer();
  let answered = false;
  void s.server.firstAnswer.then(() => (answered = true));
  try {
    assert.is((await s.request('/')).status, 200);
    await new Promise((r) => setTimeout(r, 50));
    assert.is(answered, false, 'the page is not an answer');
    assert.is((await s.request('/api/overview?range=7')).status, 200);
    await s.server.firstAnswer;
    assert.is(answered, true);
  } finally {
    await s.close();
  }
});

test('an API error answer counts too: the first answer is out either way', async () => {
  const s = await startServer();
  try {
    assert.is((await s.request('/api/overview?range=nonsense')).status, 400);
    await s.server.firstAnswer;
  } finally {
    await s.close();
  }
});

test.run();
