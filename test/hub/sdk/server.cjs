'use strict';
// Server SDK of the conformance hub (hub protocol v1, "SDK"): the file a hub names in HUB_SDK_SERVER.
// mount(app) answers the hub's IPC pings, ends the app when the hub closes the channel, and
// registers GET /hub-config and GET /vendor/agent-hub-sdk.js (the client in test/vendor) on the
// app's Express-style router. CommonJS, as a hub's SDK is loaded with require().
const fs = require('node:fs');
const path = require('node:path');

const CLIENT = path.resolve(__dirname, '../../vendor/agent-hub-sdk.js');

// The hub asks over IPC before it replaces an app whose port does not answer.
function answerHub() {
  if (!process.channel) return;
  process.on('message', (m) => {
    if (m && m.type === 'hub:ping') process.send({ type: 'hub:pong', id: m.id });
  });
  process.on('disconnect', () => process.exit(0));
  // The listener refs the channel; the app's own server keeps the process alive, not the hub.
  process.channel.unref();
}

function mount(app) {
  answerHub();
  const client = fs.readFileSync(CLIENT, 'utf8');
  app.get('/vendor/agent-hub-sdk.js', (_req, res) => res.type('js').send(client));
  app.get('/hub-config', (_req, res) => {
    const enabled = Boolean(process.env.AGENT_HUB || process.env.CLAUDE_HUB);
    res.json({ enabled, url: process.env.HUB_URL || null });
  });
}

module.exports = { mount };
