// The dependency rules of ARCHITECTURE.md over the real import graph of src/ and ui/src: no import runs back up a
// layer (or sideways, or to a file the rule does not name) and no circle of imports. The checker itself is tested on
// small graphs that break each rule, so a checker that finds nothing cannot pass.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { circles, importsOf, layerBreaks, layerOf, readGraph, type Edge, type Layer } from './import-graph.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** ARCHITECTURE.md "Dependency rules", lowest layer first. */
const LAYERS: Layer[] = [
  { name: 'shared', paths: ['src/shared/'], may: [] },
  { name: 'calendar', paths: ['src/calendar/'], may: [] },
  { name: 'workers', paths: ['src/workers/'], may: [{ layer: 'shared' }, { layer: 'calendar' }] },
  { name: 'pricing', paths: ['src/pricing/'], may: [{ layer: 'shared' }, { layer: 'calendar' }] },
  { name: 'usage-probe', paths: ['src/usage-probe/'], may: [{ layer: 'shared' }, { layer: 'calendar' }] },
  // The rollups' declaration: pure data at the bottom of the index.
  { name: 'index-db/schema', paths: ['src/index-db/schema/'], may: [{ layer: 'workers', files: ['src/workers/protocol.ts'], typeOnly: true }] },
  {
    name: 'index-db', paths: ['src/index-db/'],
    may: [
      { layer: 'shared' }, { layer: 'calendar' }, { layer: 'pricing' }, { layer: 'index-db/schema' },
      { layer: 'workers', files: ['src/workers/protocol.ts', 'src/workers/fold.ts'] },
    ],
  },
  {
    name: 'http', paths: ['src/http/'],
    may: [
      { layer: 'shared' }, { layer: 'calendar' },
      { layer: 'pricing', typeOnly: true },
      { layer: 'usage-probe', typeOnly: true },
      { layer: 'index-db', files: ['src/index-db/types.ts'], typeOnly: true },
    ],
  },
  { name: 'config', paths: ['src/config/'], may: [{ layer: 'shared' }, { layer: 'pricing', files: ['src/pricing/types.ts'], typeOnly: true }] },
  {
    name: 'ingest', paths: ['src/ingest/'],
    may: [{ layer: 'shared' }, { layer: 'calendar' }, { layer: 'workers', files: ['src/workers/protocol.ts'] }, { layer: 'index-db' }],
  },
  {
    name: 'main', paths: ['src/main/'],
    may: [{ layer: 'shared' }, { layer: 'calendar' }, { layer: 'pricing' }, { layer: 'usage-probe' }, { layer: 'index-db' }, { layer: 'http' }, { layer: 'config' }, { layer: 'ingest' }],
  },
  {
    name: 'cli', paths: ['src/cli/'],
    may: [{ layer: 'shared' }, { layer: 'calendar' }, { layer: 'workers' }, { layer: 'pricing' }, { layer: 'index-db' }, { layer: 'config' }, { layer: 'ingest' }],
  },
  { name: 'bin', paths: ['src/bin.ts'], may: [{ layer: 'main', files: ['src/main/index.ts'] }, { layer: 'cli', files: ['src/cli/index.ts'] }] },
  { name: 'launcher', paths: ['src/launcher.cts', 'src/code-cache.cts'], may: [{ layer: 'cli', files: ['src/cli/statusline-command.ts', 'src/cli/index.ts'], typeOnly: true }] },
  { name: 'ui', paths: ['ui/src/'], may: [{ layer: 'shared' }, { layer: 'calendar' }] },
];

const edge = (from: string, to: string, typeOnly = false): Edge => ({ from, to, typeOnly });

const Parse = suite('importsOf');

Parse('reads imports, re-exports and dynamic imports, type-only or not, and nothing in comments or strings', () => {
  const text = [
    "import fs from 'node:fs';",
    "import {",
    "  a,",
    "  type B,",
    "} from './multi-line.ts';",
    "import type { C } from '../types.ts';",
    "import { type D } from './inline-type.ts';",
    "import './side-effect.ts';",
    "import cjs = require('./common-js.cts');",
    "export * from './all.ts';",
    "export type { E } from './export-type.ts';",
    "// import { f } from './in-a-comment.ts';",
    "/* export * from './in-a-block-comment.ts'; */",
    "const s = \"import g from './in-a-string.ts'\";",
    "const t = `export * from './in-a-template.ts'`;",
    "async function later() { return import('./dynamic.ts'); }",
  ].join('\n');
  assert.equal(importsOf('x.ts', text), [
    { specifier: 'node:fs', typeOnly: false },
    { specifier: './multi-line.ts', typeOnly: false },
    { specifier: '../types.ts', typeOnly: true },
    // verbatimModuleSyntax keeps `import {}` of a module whose every name is a type: the module still loads.
    { specifier: './inline-type.ts', typeOnly: false },
    { specifier: './side-effect.ts', typeOnly: false },
    { specifier: './common-js.cts', typeOnly: false },
    { specifier: './all.ts', typeOnly: false },
    { specifier: './export-type.ts', typeOnly: true },
    { specifier: './dynamic.ts', typeOnly: false },
  ]);
});

const Rules = suite('layer rules');

Rules('every import the rules allow passes', () => {
  assert.equal(layerBreaks([
    edge('src/index-db/writer.ts', 'src/workers/protocol.ts'),
    edge('src/index-db/types.ts', 'src/shared/api-types.ts', true),
    edge('src/http/server.ts', 'src/index-db/types.ts', true),
    edge('src/http/server.ts', 'src/http/hub.ts'),
    edge('src/main/index.ts', 'src/http/server.ts'),
    edge('src/bin.ts', 'src/cli/index.ts'),
    edge('ui/src/state.ts', 'src/shared/machine-label.ts'),
  ], LAYERS), []);
});

Rules('an import that runs back up, sideways, to a file the rule does not name or as a value where only types may go is one line each', () => {
  const breaks = layerBreaks([
    edge('src/http/server.ts', 'src/main/config.ts', true),
    edge('src/index-db/types.ts', 'src/http/api-types.ts', true),
    edge('src/pricing/table.ts', 'src/usage-probe/probe.ts'),
    edge('src/index-db/writer.ts', 'src/workers/extract.ts'),
    edge('src/http/routes/context.ts', 'src/index-db/queries/reader.ts', true),
    edge('src/http/routes/meta.ts', 'src/pricing/table.ts'),
    edge('ui/src/api.ts', 'src/http/params.ts'),
    edge('src/shared/api-types.ts', 'src/index-db/types.ts', true),
    edge('src/main/bin.ts', 'src/cli/index.ts'),
    edge('src/cli/run-report.ts', 'src/http/params.ts'),
    edge('src/ingest/pipeline.ts', 'src/main/index-keeper.ts', true),
    edge('src/reports/x.ts', 'src/shared/api-types.ts'),
  ], LAYERS);
  assert.equal(breaks, [
    'src/http/server.ts -> src/main/config.ts: http may not import main',
    'src/index-db/types.ts -> src/http/api-types.ts: index-db may not import http',
    'src/pricing/table.ts -> src/usage-probe/probe.ts: pricing may not import usage-probe',
    'src/index-db/writer.ts -> src/workers/extract.ts: index-db may import from workers only src/workers/protocol.ts, src/workers/fold.ts',
    'src/http/routes/context.ts -> src/index-db/queries/reader.ts: http may import from index-db only src/index-db/types.ts with `import type`',
    'src/http/routes/meta.ts -> src/pricing/table.ts: http may import from pricing only any file with `import type`',
    'ui/src/api.ts -> src/http/params.ts: ui may not import http',
    'src/shared/api-types.ts -> src/index-db/types.ts: shared may not import index-db',
    'src/main/bin.ts -> src/cli/index.ts: main may not import cli',
    'src/cli/run-report.ts -> src/http/params.ts: cli may not import http',
    'src/ingest/pipeline.ts -> src/main/index-keeper.ts: ingest may not import main',
    'src/reports/x.ts -> src/shared/api-types.ts: src/reports/x.ts is in no layer',
  ]);
});

Rules('a file belongs to the longest path that names it', () => {
  assert.is(layerOf('src/bin.ts', LAYERS)?.name, 'bin');
  assert.is(layerOf('src/main/bin.ts', LAYERS)?.name, 'main');
  assert.is(layerOf('src/binary.ts', LAYERS), undefined);
});

const Circles = suite('circles');

Circles('a circle of three files, a file importing itself and a circle of type-only imports are each found', () => {
  assert.equal(circles([
    edge('src/pricing/table.ts', 'src/pricing/catalogue.ts'),
    edge('src/pricing/catalogue.ts', 'src/pricing/cost.ts', true),
    edge('src/pricing/cost.ts', 'src/pricing/table.ts', true),
    edge('src/pricing/table.ts', 'src/pricing/lookup.ts'),
    edge('src/index-db/time.ts', 'src/index-db/time.ts'),
    edge('src/index-db/queries/reader.ts', 'src/index-db/queries/scope.ts', true),
    edge('src/index-db/queries/scope.ts', 'src/index-db/queries/reader.ts', true),
  ]), [
    ['src/index-db/queries/reader.ts', 'src/index-db/queries/scope.ts', 'src/index-db/queries/reader.ts'],
    ['src/index-db/time.ts', 'src/index-db/time.ts'],
    ['src/pricing/catalogue.ts', 'src/pricing/cost.ts', 'src/pricing/table.ts', 'src/pricing/catalogue.ts'],
  ]);
});

Circles('imports that fan out and meet again are no circle', () => {
  assert.equal(circles([
    edge('src/main/index.ts', 'src/http/server.ts'),
    edge('src/main/index.ts', 'src/index-db/index.ts'),
    edge('src/http/server.ts', 'src/index-db/types.ts'),
    edge('src/index-db/index.ts', 'src/index-db/types.ts'),
  ]), []);
});

const Tree = suite('the source tree');
const edges = readGraph(root, ['src', 'ui/src']);

Tree('the graph is read whole: static, type-only and dynamic imports of src/ and ui/src', () => {
  assert.ok(edges.length > 300, `${edges.length} imports`);
  const has = (e: Edge) => edges.some((x) => x.from === e.from && x.to === e.to && x.typeOnly === e.typeOnly);
  assert.ok(has(edge('src/bin.ts', 'src/main/index.ts')), 'dynamic import');
  assert.ok(has(edge('src/http/server.ts', 'src/index-db/types.ts', true)), 'type-only import');
  assert.ok(has(edge('ui/src/api.ts', 'src/shared/api-types.ts', true)), 'ui -> shared');
  assert.ok(has(edge('src/launcher.cts', 'src/cli/statusline-command.ts', true)), 'a CommonJS .cts file');
  assert.ok(has(edge('src/launcher.cts', 'src/code-cache.cts')), 'import = require()');
});

Tree('no import breaks the layer rules', () => {
  assert.equal(layerBreaks(edges, LAYERS), []);
});

Tree('no circle of imports', () => {
  assert.equal(circles(edges), []);
});

Tree('every source file is in a layer, and shared and calendar import no package or Node builtin (the browser bundle takes them)', () => {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.c?ts$/.test(e.name) ? [path.join(dir, e.name)] : []));
  const files = [...walk(path.join(root, 'src')), ...walk(path.join(root, 'ui/src'))].map((f) => path.relative(root, f).split(path.sep).join('/'));
  assert.equal(files.filter((f) => !layerOf(f, LAYERS)), []);
  const shared = files.filter((f) => ['shared', 'calendar'].includes(layerOf(f, LAYERS)?.name ?? ''));
  assert.ok(shared.some((f) => f.startsWith('src/shared/')) && shared.some((f) => f.startsWith('src/calendar/')));
  const external = shared.flatMap((f) => importsOf(f, fs.readFileSync(path.join(root, f), 'utf8')).filter((r) => !r.specifier.startsWith('.')).map((r) => `${f}: ${r.specifier}`));
  assert.equal(external, []);
});

Parse.run();
Rules.run();
Circles.run();
Tree.run();
