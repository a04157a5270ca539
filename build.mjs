// One esbuild script: the server (main + parse worker) and the UI bundle.
// `--watch` rebuilds on change (used by `npm run dev`).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes('--watch');

const server = {
  entryPoints: { main: 'src/bin.ts', 'parse-worker': 'src/workers/parse-transcript.ts' },
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
  const a = await esbuild.context(server);
  const b = await esbuild.context(ui);
  copyStatic();
  await Promise.all([a.watch(), b.watch()]);
  console.error('esbuild watching');
} else {
  // Chunk names carry a content hash: drop the previous build's so dist/ holds only what main.js loads.
  for (const f of fs.existsSync(path.join(root, 'dist')) ? fs.readdirSync(path.join(root, 'dist')) : []) {
    if (f.startsWith('chunk-')) fs.rmSync(path.join(root, 'dist', f));
  }
  await Promise.all([esbuild.build(server), esbuild.build(ui)]);
  copyStatic();
}
