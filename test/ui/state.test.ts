// The dashboard's navigation and range state in Node: the URL <-> state parsing, presets and labels, and scopes,
// all pure (range syntax and local days: test/calendar). Storage needs a browser: here only its guard is checked (no storage at all, as in a sandboxed
// frame, is no error and leaves the URL and the defaults in charge); what is written and read back is covered in
// Chromium (test/e2e/browser-shell.test.ts).
process.env.TZ = 'America/New_York';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  customRange,
  DEFAULT_RANGE,
  fromUrl,
  initialState,
  isId,
  isScope,
  loadScope,
  loadSort,
  machineFromUrl,
  normalizeNav,
  RANGE_PRESETS,
  rangeLabel,
  rangeParams,
  readStore,
  repositoryScope,
  sameRange,
  scopeParams,
  scopeRepository,
  toUrl,
  writeStore,
  type Nav,
  type RangeSel,
} from '../../ui/src/state.ts';
import { parseRangeString, rangeToString } from '../../src/calendar/range.ts';

const Ranges = suite('range syntax');

Ranges('every preset and a custom range survive the text form', () => {
  const ranges: RangeSel[] = [...RANGE_PRESETS.map((p) => p.range), { kind: 'days', days: 14 }, { kind: 'custom', from: '2025-01-01', to: '2025-01-31' }];
  for (const r of ranges) assert.equal(parseRangeString(rangeToString(r)), r, rangeToString(r));
  assert.is(rangeToString({ kind: 'days', days: 7 }), '7');
  assert.is(rangeToString({ kind: 'custom', from: '2025-01-01', to: '2025-01-31' }), '2025-01-01..2025-01-31');
  assert.is(rangeToString({ kind: 'lastmonth' }), 'lastmonth');
});

Ranges('a custom range comes back ordered; days must exist', () => {
  assert.equal(parseRangeString('2025-03-10..2025-03-01'), { kind: 'custom', from: '2025-03-01', to: '2025-03-10' });
  assert.equal(customRange('2024-02-29', '2024-02-29'), { kind: 'custom', from: '2024-02-29', to: '2024-02-29' });
  assert.is(customRange('2025-02-29', '2025-03-01'), null, 'not a leap year');
  assert.is(customRange('2025-13-01', '2025-12-01'), null);
});

Ranges("the server's query for each kind", () => {
  assert.equal(rangeParams({ kind: 'today' }), { range: 'today' });
  assert.equal(rangeParams({ kind: '24h' }), { range: '24h' });
  assert.equal(rangeParams({ kind: 'days', days: 30 }), { range: '30' });
  assert.equal(rangeParams({ kind: 'week' }), { range: 'week' });
  assert.equal(rangeParams({ kind: 'custom', from: '2025-01-01', to: '2025-01-02' }), { from: '2025-01-01', to: '2025-01-02' });
});

Ranges('labels: presets by name, other day counts, custom days', () => {
  assert.is(rangeLabel({ kind: 'days', days: 7 }), 'Last 7 days');
  assert.is(rangeLabel({ kind: 'days', days: 14 }), 'Last 14 days');
  assert.is(rangeLabel({ kind: 'month' }), 'This month');
  assert.is(rangeLabel({ kind: 'custom', from: '2025-01-05', to: '2025-01-05' }), '2025-01-05');
  assert.is(rangeLabel({ kind: 'custom', from: '2025-01-01', to: '2025-01-31' }), '2025-01-01 – 2025-01-31');
  assert.ok(sameRange(DEFAULT_RANGE, { kind: 'days', days: 3 }));
  assert.not.ok(sameRange({ kind: 'days', days: 3 }, { kind: 'today' }));
});

const Scopes = suite('ids and scopes');

Scopes("ids use the server's safe set; a repository scope is its path behind repo:", () => {
  assert.ok(isId('-home-me-proj.v2_x'));
  for (const bad of ['', 'a/b', 'a:b', 'a b', 'x'.repeat(513), 7, null]) assert.not.ok(isId(bad), String(bad));
  const scope = repositoryScope('/home/me/proj');
  assert.is(scope, 'repo:/home/me/proj');
  assert.is(scopeRepository(scope), '/home/me/proj');
  assert.is(scopeRepository('-home-me-proj'), null);
  assert.ok(isScope(scope));
  assert.ok(isScope('-home-me-proj'));
  assert.not.ok(isScope('repo:'));
  assert.not.ok(isScope(`repo:/${'x'.repeat(4096)}`));
  assert.equal(scopeParams(null), {});
  assert.equal(scopeParams('-home-me-proj'), { project: '-home-me-proj' });
  assert.equal(scopeParams(scope), { repository: '/home/me/proj' });
});

const Urls = suite('navigation and the URL');

Urls('a nav is made consistent: each view keeps only what it needs', () => {
  const none = { project: null, session: null, repository: null };
  assert.equal(normalizeNav(null), { view: 'overview', ...none });
  assert.equal(normalizeNav({ view: 'detail' }), { view: 'overview', ...none }, 'a detail view needs a session');
  assert.equal(normalizeNav({ view: 'detail', project: 'p', session: 's', repository: '/r' }), { view: 'detail', project: 'p', session: 's', repository: null });
  assert.equal(normalizeNav({ view: 'project', project: 'p', session: 's' }), { view: 'project', ...none, project: 'p' });
  assert.equal(normalizeNav({ view: 'project', project: 'a/b' }), { view: 'overview', ...none }, 'not an id');
  assert.equal(normalizeNav({ view: 'insights', project: 'p' }), { view: 'insights', ...none });
  assert.equal(normalizeNav({ view: 'repository', repository: '/home/me/proj' }), { view: 'repository', ...none, repository: '/home/me/proj' });
  assert.equal(normalizeNav({ view: 'nope' as Nav['view'] }), { view: 'overview', ...none });
});

Urls('what a URL asks for', () => {
  assert.equal(fromUrl(''), { nav: null, range: null });
  assert.equal(fromUrl('?range=30'), { nav: null, range: { kind: 'days', days: 30 } });
  assert.equal(fromUrl('?view=project&project=-home-me-proj&range=week').nav, { view: 'project', project: '-home-me-proj', session: null, repository: null });
  assert.equal(fromUrl('?session=abc-123').nav, { view: 'detail', project: null, session: 'abc-123', repository: null }, "the hub's action URL");
  assert.equal(fromUrl('?from=2025-01-31&to=2025-01-01').range, { kind: 'custom', from: '2025-01-01', to: '2025-01-31' });
  assert.is(fromUrl('?range=bogus').range, null);
  assert.equal(fromUrl('?view=repository&repository=%2Fhome%2Fme%2Fproj').nav?.repository, '/home/me/proj');
});

Urls("the URL of a state keeps other parameters (a hub's) and reads back the same", () => {
  const nav: Nav = { view: 'detail', project: '-home-me-proj', session: 'abc', repository: null };
  const range: RangeSel = { kind: 'custom', from: '2025-01-01', to: '2025-01-31' };
  const url = toUrl(nav, range, '?theme=dark&view=overview&from=x&to=y&machine=old', 'laptop');
  const q = new URLSearchParams(url);
  assert.is(q.get('theme'), 'dark');
  assert.is(q.get('from'), null, 'a custom range travels as range=');
  assert.is(q.get('machine'), 'laptop');
  assert.equal(fromUrl(url), { nav, range });
  assert.is(machineFromUrl(url), 'laptop');
  assert.is(new URLSearchParams(toUrl({ view: 'overview', project: 'p', session: null, repository: null }, DEFAULT_RANGE, '')).get('project'), null);
  assert.is(new URLSearchParams(toUrl(nav, range, '')).get('machine'), null, 'every machine: no parameter');
});

Urls("machine labels follow the server's pattern", () => {
  assert.is(machineFromUrl('?machine=work-laptop.1'), 'work-laptop.1');
  for (const bad of ['?machine=', '?machine=-x', '?machine=a%20b', `?machine=${'x'.repeat(65)}`, '']) assert.is(machineFromUrl(bad), null, bad);
});

const NoStorage = suite('without browser storage');

NoStorage('reads give nothing, writes are dropped, and start-up follows the URL, then the defaults', () => {
  assert.is(typeof (globalThis as { window?: unknown }).window, 'undefined', 'Node: no window, as a frame whose storage throws');
  writeStore('cost:range', '7');
  assert.is(readStore('cost:range'), null);
  assert.is(loadSort('overview'), null);
  assert.is(loadScope(), null);
  assert.equal(initialState('?view=insights&range=7'), { nav: { view: 'insights', project: null, session: null, repository: null }, range: { kind: 'days', days: 7 }, scope: null });
  assert.equal(initialState(''), { nav: { view: 'overview', project: null, session: null, repository: null }, range: DEFAULT_RANGE, scope: null });
});

Ranges.run();
Scopes.run();
Urls.run();
NoStorage.run();
