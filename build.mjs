// One esbuild script: the server (main + parse worker + compaction worker), the installed executable, the
// statusline's and the other commands' own bundles, and the UI bundle.
// `--watch` rebuilds on change (used by `npm run dev`).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes('--watch');

const server = {
  entryPoints: { main: 'src/bin.ts', 'parse-worker': 'src/workers/parse-transcript.ts', 'compact-worker': 'src/index-db/write/compact-worker.ts' },
  outdir: 'dist',
  bundle: true,
  // The server and the command line are chunks that main.js loads on demand (src/bin.ts).
  splitting: true,
  chunkNames: 'chunk-[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
};

// `cost-dashboard statusline` runs once per render, so it is one CommonJS file with its dependencies inlined (no
// chunk graph, no ES module loader, no CommonJS-to-ESM wrapping of better-sqlite3's modules): the installed
// executable (dist/cost-dashboard.cjs) and dist/main.js both require it for that command.
// better-sqlite3 finds its addon through the `bindings` package, which searches from the calling file's package
// and so fails inside a bundle: the shim requires the addon by its package path instead, from node_modules.
const addonShim = {
  name: 'better-sqlite3-addon',
  setup(b) {
    b.onResolve({ filter: /^bindings$/ }, () => ({ path: 'bindings', namespace: 'addon-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'addon-shim' }, () => ({
      contents: "module.exports = () => require('better-sqlite3/build/Release/better_sqlite3.node');",
      loader: 'js',
    }));
  },
};
/** A one-file CommonJS bundle in dist/ (`.cjs`, since package.json makes `.js` an ES module). */
const cjsFile = {
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
};

const statusline = {
  ...cjsFile,
  entryPoints: { statusline: 'src/cli/statusline-command.ts' },
  external: ['*.node'],
  plugins: [addonShim],
  // The server's config finds package.json from its own file (--version), which a CommonJS file names by __filename.
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: "'use strict'; const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: 'linked',
};

// Every other command (the reports, `update`) is a new process too, so it is one CommonJS file as well (a report
// over an up-to-date index spent ~25-50 ms more CPU loading the server build's ES module chunks): dist/commands.cjs.
// Piscina stays a package, required only by a catch-up big enough for the worker pool.
const commands = {
  ...statusline,
  entryPoints: { commands: 'src/cli/index.ts' },
  external: ['*.node', 'piscina'],
};

// The installed executable (package.json "bin"): CommonJS, so a statusline render or a report never starts the ES
// module loader (src/launcher.cts): they require their bundles above; the server goes on to dist/main.js.
const launcher = {
  ...cjsFile,
  entryPoints: { 'cost-dashboard': 'src/launcher.cts' },
  banner: { js: '#!/usr/bin/env node' },
};

const ui = {
  entryPoints: { app: 'ui/src/main.ts' },
  outdir: 'dist/ui',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  minify: !watch,
  sourcemap: 'linked',
  loader: { '.woff2': 'file' },
  logLevel: 'warning',
};

function copyStatic() {
  fs.mkdirSync(path.join(root, 'dist/ui/vendor'), { recursive: true });
  fs.copyFileSync(path.join(root, 'ui/index.html'), path.join(root, 'dist/ui/index.html'));
  fs.copyFileSync(path.join(root, 'ui/vendor/agent-hub-sdk.js'), path.join(root, 'dist/ui/vendor/agent-hub-sdk.js'));
  for (const f of fs.readdirSync(path.join(root, 'ui/static'))) {
    fs.copyFileSync(path.join(root, 'ui/static', f), path.join(root, 'dist/ui', f));
  }
}

if (watch) {
  const contexts = await Promise.all([server, launcher, statusline, commands, ui].map((o) => esbuild.context(o)));
  copyStatic();
  await Promise.all(contexts.map((c) => c.watch()));
  console.error('esbuild watching');
} else {
  // Chunk names carry a content hash: drop the previous build's so dist/ holds only what main.js loads; and the
  // statusline's V8 code caches (src/code-cache.cts), which belong to the previous bundle.
  for (const f of fs.existsSync(path.join(root, 'dist')) ? fs.readdirSync(path.join(root, 'dist')) : []) {
    if (f.startsWith('chunk-') || f.endsWith('.v8cache')) fs.rmSync(path.join(root, 'dist', f));
  }
  await Promise.all([server, launcher, statusline, commands, ui].map((o) => esbuild.build(o)));
  copyStatic();
}
