'use strict';
// Server SDK of the conformance hub, named as the public hub names it: the file a hub passes in
// HUB_SDK_SERVER. mount(app) answers the hub's IPC pings and stats asks, ends the app when the hub
// closes the channel, and registers GET /hub-config and GET /vendor/claude-hub-sdk.js (keys.js then
// client.js, which sets window.ClaudeHub) on the app's Express-style router. CommonJS, as a hub's
// SDK is loaded with require().
const fs = require('node:fs');
const path = require('node:path');

/** What an app page loads as /vendor/claude-hub-sdk.js: the key rule, then the client. */
function bundle() {
  const read = (f) => fs.readFileSync(path.join(__dirname, f), 'utf8');
  return `${read('keys.js')}\n${read('client.js')}`;
}

/** The app process's own memory and CPU share, sampled over 250 ms (the hub's stats view asks). */
function sampleStats() {
  return new Promise((resolve) => {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    setTimeout(() => {
      const cpu = process.cpuUsage(cpu0);
      const us = Number(process.hrtime.bigint() - t0) / 1000;
      resolve({ rss: process.memoryUsage.rss(), cpu: Math.round(((cpu.user + cpu.system) / us) * 100) });
    }, 250).unref();
  });
}

// The hub asks over IPC before it replaces an app whose port does not answer.
function answerHub() {
  if (!process.channel) return;
  process.on('message', (m) => {
    if (m && m.type === 'hub:ping') process.send({ type: 'hub:pong', id: m.id });
    if (m && m.type === 'hub:stats') void sampleStats().then((s) => process.connected && process.send({ type: 'hub:stats', id: m.id, ...s }));
  });
  // As the public hub's SDK does: the hub is gone, so is the app, at once.
  process.on('disconnect', () => process.exit(0));
  // The listener refs the channel; the app's own server keeps the process alive, not the hub.
  process.channel.unref();
}

function mount(app) {
  answerHub();
  const client = bundle();
  app.get('/vendor/claude-hub-sdk.js', (_req, res) => res.type('js').send(client));
  app.get('/hub-config', (_req, res) => res.json({ enabled: Boolean(process.env.CLAUDE_HUB), url: process.env.HUB_URL || null }));
}

module.exports = { mount, bundle };
