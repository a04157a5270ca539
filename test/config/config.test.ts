// parseConfig: every flag and environment variable, their precedence, defaults and errors;
// and the CLI's exit code 2 on a bad flag (src/main/index.ts in a child process).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, parseConfig, DEFAULT_PORT, defaultMachine } from '../../src/config/config.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
const home = path.join(tmp, 'home');
const dirA = path.join(tmp, 'a');
const dirB = path.join(tmp, 'b');
for (const d of [home, dirA, dirB, path.join(home, 'synced')]) fs.mkdirSync(d, { recursive: true });
const ENV = { HOME: home, XDG_CACHE_HOME: path.join(tmp, 'xdg') };
const parse = (argv: string[], env: NodeJS.ProcessEnv = {}, platform: NodeJS.Platform = 'linux') =>
  parseConfig(argv, { ...ENV, ...env }, platform);

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, ConfigError);
    assert.not.match((err as Error).message, '\n');
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

const t = suite('parseConfig');

t('defaults', () => {
  const c = parse([]);
  assert.is(c.port, DEFAULT_PORT);
  assert.is(c.host, '127.0.0.1');
  assert.equal(c.allowedHosts, []);
  assert.equal(c.dirs, [path.join(home, '.claude'), path.join(home, '.config', 'claude')]);
  assert.equal(c.projectsDirs, [path.join(home, '.claude', 'projects'), path.join(home, '.config', 'claude', 'projects')]);
  assert.is(c.dirsExplicit, false, 'the default dir may be missing');
  assert.is(c.open, false);
  assert.is(c.offline, false);
  assert.is(c.costMode, 'auto');
  assert.is(c.prices, null);
  assert.is(c.agentBin, 'claude');
  assert.is(c.hub, false);
  assert.is(c.hubUrl, null);
  assert.is(c.hubSdkServer, null);
  assert.is(c.help, null);
  assert.is(c.version, null);
  const hash = createHash('sha256').update([...c.dirs].sort().join('\n')).digest('hex').slice(0, 16);
  // Issue 37: the index is data (the user data dir); the cache dir (XDG_CACHE_HOME here) is where it used to be.
  assert.is(c.indexPath, path.join(home, '.local', 'share', 'cost-dashboard', `${hash}.db`));
  assert.is(c.formerIndexPath, path.join(tmp, 'xdg', 'cost-dashboard', `${hash}.db`));
});

t('every flag, in both forms', () => {
  const c = parse([
    '--port', '4000', `--dir=${dirA},${dirB}`, '--open', '--host', '::1', '--allowed-hosts=Box.lan, other', '--index', '~/idx.db',
    '--prices=/p.json', '--offline', '--cost-mode', 'calculate',
  ]);
  assert.is(c.port, 4000);
  assert.equal(c.dirs, [dirA, dirB]);
  assert.equal(c.projectsDirs, [path.join(dirA, 'projects'), path.join(dirB, 'projects')]);
  assert.is(c.dirsExplicit, true);
  assert.is(c.open, true);
  assert.is(c.host, '::1');
  assert.equal(c.allowedHosts, ['box.lan', 'other']);
  assert.is(c.indexPath, path.join(home, 'idx.db'));
  assert.is(c.prices, '/p.json');
  assert.is(c.offline, true);
  assert.is(c.costMode, 'calculate');
  assert.is(parse(['--port=0']).port, 0);
});

t('--dir expands a leading ~ and each dir gets its own index hash', () => {
  const c = parse(['--dir', '~/synced']);
  assert.equal(c.dirs, [path.join(home, 'synced')]);
  assert.is.not(c.indexPath, parse([]).indexPath);
  assert.is(parse(['--dir', `${dirA},${dirB}`]).indexPath, parse(['--dir', `${dirB},${dirA}`]).indexPath, 'sorted list');
});

t('environment variables', () => {
  const c = parse([], {
    PORT: '5000', AGENT_CONFIG_DIR: dirA, HOST: '0.0.0.0', ALLOWED_HOSTS: 'a.example,b.example', AGENT_BIN: '/opt/claude',
    AGENT_HUB: '1', HUB_URL: 'http://localhost:7000/', HUB_SDK_SERVER: '/hub/server.js', COST_INDEX: path.join(tmp, 'i.db'),
    PRICES_URL: 'https://example.test/p.json',
  });
  assert.is(c.port, 5000);
  assert.equal(c.dirs, [dirA]);
  assert.is(c.dirsExplicit, true);
  assert.is(c.host, '0.0.0.0');
  assert.equal(c.allowedHosts, ['a.example', 'b.example']);
  assert.is(c.agentBin, '/opt/claude');
  assert.is(c.hub, true);
  assert.is(c.hubUrl, 'http://localhost:7000');
  assert.is(c.hubSdkServer, '/hub/server.js');
  assert.is(c.indexPath, path.join(tmp, 'i.db'));
  assert.is(c.prices, 'https://example.test/p.json');
});

t('aliases: CLAUDE_* accepted, the spec name wins; CONFIG_DIR before DIR', () => {
  assert.equal(parse([], { CLAUDE_CONFIG_DIR: dirB }).dirs, [dirB]);
  assert.equal(parse([], { AGENT_CONFIG_DIR: dirA, CLAUDE_CONFIG_DIR: dirB }).dirs, [dirA]);
  assert.equal(parse([], { AGENT_DIR: dirA, CLAUDE_DIR: dirB }).dirs, [dirA]);
  assert.equal(parse([], { CLAUDE_DIR: dirB }).dirs, [dirB]);
  assert.equal(parse([], { AGENT_DIR: dirA, CLAUDE_CONFIG_DIR: dirB }).dirs, [dirB]);
  assert.is(parse([], { CLAUDE_BIN: '/x/claude' }).agentBin, '/x/claude');
  assert.is(parse([], { AGENT_BIN: '/a', CLAUDE_BIN: '/c' }).agentBin, '/a');
  assert.is(parse([], { CLAUDE_HUB: '1' }).hub, true);
});

t('a flag beats its environment variable', () => {
  const c = parse(['--port', '4001', '--dir', dirB, '--host', '127.0.0.2', '--allowed-hosts', 'x', '--index', '/f.db', '--prices', 'p'], {
    PORT: '5000', AGENT_CONFIG_DIR: dirA, HOST: '0.0.0.0', ALLOWED_HOSTS: 'y', COST_INDEX: '/e.db', PRICES_URL: 'q',
  });
  assert.is(c.port, 4001);
  assert.equal(c.dirs, [dirB]);
  assert.is(c.host, '127.0.0.2');
  assert.equal(c.allowedHosts, ['x']);
  assert.is(c.indexPath, '/f.db');
  assert.is(c.prices, 'p');
});

t('platform defaults: claude.exe and LOCALAPPDATA on Windows; the index in the user data dir, formerly the cache dir (issue 37)', () => {
  const w = parse([], { USERPROFILE: home, LOCALAPPDATA: path.join(tmp, 'local') }, 'win32');
  assert.is(w.agentBin, 'claude.exe');
  assert.ok(w.indexPath.startsWith(path.join(tmp, 'local', 'cost-dashboard')));
  assert.is(w.formerIndexPath, null, 'on Windows both are LOCALAPPDATA: nothing to move');
  const mac = parse([], {}, 'darwin');
  assert.ok(mac.indexPath.startsWith(path.join(home, 'Library', 'Application Support', 'cost-dashboard')), mac.indexPath);
  assert.is(mac.formerIndexPath, path.join(home, 'Library', 'Caches', 'cost-dashboard', path.basename(mac.indexPath)));
  const linux = parse([], { XDG_CACHE_HOME: '', XDG_DATA_HOME: '' });
  assert.ok(linux.indexPath.startsWith(path.join(home, '.local', 'share', 'cost-dashboard')), linux.indexPath);
  assert.is(linux.formerIndexPath, path.join(home, '.cache', 'cost-dashboard', path.basename(linux.indexPath)));
  const xdg = parse([], { XDG_CACHE_HOME: path.join(tmp, 'xc'), XDG_DATA_HOME: path.join(tmp, 'xd') });
  assert.is(path.dirname(xdg.indexPath), path.join(tmp, 'xd', 'cost-dashboard'));
  assert.is(path.dirname(xdg.formerIndexPath ?? ''), path.join(tmp, 'xc', 'cost-dashboard'));
  assert.is(parse([], { XDG_DATA_HOME: 'relative' }).indexPath.startsWith(path.join(home, '.local', 'share')), true, 'a relative XDG dir is ignored');
  assert.is(parse(['--index', path.join(tmp, 'mine.db')]).formerIndexPath, null, 'an index the user names never moves');
});

t('--help returns the help text, --version the package version', () => {
  assert.match(parse(['--help']).help ?? '', '--allowed-hosts');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.is(parse(['--version']).version, pkg.version);
});

t('errors', () => {
  assert.match(configError(() => parse(['--port', 'abc'])).message, 'Invalid port');
  assert.match(configError(() => parse(['--port=70000'])).message, 'Invalid port');
  assert.match(configError(() => parse([], { PORT: '-1' })).message, 'PORT');
  assert.match(configError(() => parse(['--bogus'])).message, 'Unknown option: --bogus');
  assert.match(configError(() => parse(['stray'])).message, 'Unexpected argument');
  assert.match(configError(() => parse(['--port'])).message, '--port needs a value');
  assert.match(configError(() => parse(['--dir', '--open'])).message, '--dir needs a value');
  assert.match(configError(() => parse(['--host='])).message, '--host needs a value');
  assert.match(configError(() => parse(['--open=yes'])).message, 'takes no value');
  assert.match(configError(() => parse(['--cost-mode', 'cheap'])).message, 'auto or calculate');
  assert.match(configError(() => parse(['--dir', path.join(tmp, 'missing')])).message, 'Config dir not found');
  assert.match(configError(() => parse(['--dir', `${dirA},${path.join(tmp, 'gone')}`])).message, 'gone');
  assert.match(configError(() => parse([], { AGENT_CONFIG_DIR: path.join(tmp, 'missing') })).message, 'Config dir not found');
  assert.match(configError(() => parse([], { HUB_URL: 'not a url' })).message, 'HUB_URL');
  // Issue 37: the origin is a framing source as it is; a wildcard or anything but one origin is refused.
  for (const bad of ['http://*', 'https://*.example.com', 'http://*:3000', 'http://a;b', 'http://h,i', 'http://h%2a', 'http://localhost:3000/app', 'http://localhost:3000?x', 'http://u:p@localhost:3000', 'http://localhost:3000#f']) {
    assert.match(configError(() => parse([], { HUB_URL: bad })).message, 'expected one origin', bad);
  }
  for (const [ok, origin] of [['http://127.0.0.1:7000', 'http://127.0.0.1:7000'], ['https://hub.example.com/', 'https://hub.example.com'], ['http://[::1]:8080', 'http://[::1]:8080']]) {
    assert.is(parse([], { HUB_URL: ok }).hubUrl, origin);
  }
  assert.is(configError(() => parse(['--x'])).exitCode, 2);
});

t('the CLI exits 2 with a one-line message on a bad flag', () => {
  const main = path.join(ROOT, 'src/main/index.ts');
  assert.ok(fs.existsSync(main), `the server's entry ${main} exists`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, '--port', 'abc'], {
    cwd: ROOT, encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...ENV },
  });
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, 'Invalid port');
  assert.is(r.stderr.trim().split('\n').length, 1);
});

t('--machine and --metrics-token (METRICS_TOKEN); the machine defaults to the host name as a label', () => {
  const c = parse(['--machine', 'work-box.1', '--metrics-token', 'tok-1']);
  assert.is(c.machine, 'work-box.1');
  assert.is(c.metricsToken, 'tok-1');
  assert.is(parse([], { METRICS_TOKEN: 'tok-env' }).metricsToken, 'tok-env');
  assert.is(parse(['--metrics-token=tok-flag'], { METRICS_TOKEN: 'tok-env' }).metricsToken, 'tok-flag');
  assert.is(parse([]).metricsToken, null);
  assert.is(parse([]).machine, defaultMachine(os.hostname()));
  assert.is(defaultMachine('Dev Box.corp.example'), 'Dev-Box');
  assert.is(defaultMachine('-_'), 'local');
  assert.is(defaultMachine('x'.repeat(80)), 'x'.repeat(64));
  for (const bad of ['-lead', 'a b', 'x'.repeat(65), 'é']) {
    assert.match(configError(() => parse(['--machine', bad])).message, `Invalid machine label "${bad}" (--machine)`);
  }
});

t('--dir labels: label=path is that machine\'s dir, an unlabelled dir (or the label of --machine) this machine', () => {
  const c = parse(['--machine', 'ws', '--dir', `laptop=${dirA},${dirB},ws=${path.join(home, 'synced')},box.2=~/synced,${dirA}`]);
  assert.equal(c.dirs, [dirA, dirB, path.join(home, 'synced')], 'one entry per dir, the first mention deciding');
  assert.equal(c.dirMachines, ['laptop', null, null]);
  assert.equal(c.projectsDirs, [dirA, dirB, path.join(home, 'synced')].map((d) => path.join(d, 'projects')));
  assert.is(c.indexPath, parse(['--dir', `${dirA},${dirB},${path.join(home, 'synced')}`]).indexPath, 'labels do not move the index');
  assert.equal(parse(['--dir', dirA]).dirMachines, [null]);
  assert.equal(parse([]).dirMachines, [null, null]);
  assert.equal(parse([], { AGENT_CONFIG_DIR: `laptop=${dirA}` }).dirMachines, ['laptop']);
  // '=' after a separator is part of a path
  const eq = path.join(tmp, 'a=b');
  fs.mkdirSync(eq, { recursive: true });
  assert.equal([parse(['--dir', eq]).dirs, parse(['--dir', eq]).dirMachines], [[eq], [null]]);
  for (const bad of ['-lead', 'a b', 'x'.repeat(65), 'é']) {
    assert.match(configError(() => parse(['--dir', `${bad}=${dirA}`])).message, `Invalid machine label "${bad}" (--dir ${bad}=${dirA})`);
  }
  assert.match(configError(() => parse(['--dir', 'laptop='])).message, 'Invalid config dir "laptop=": expected label=path');
});

t('a bad --dir label is one line and exit code 2', () => {
  const main = path.join(ROOT, 'src/main/index.ts');
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, '--dir', `lap top=${dirA}`], {
    cwd: ROOT, encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...ENV },
  });
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, 'Invalid machine label "lap top"');
  assert.is(r.stderr.trim().split('\n').length, 1);
});

t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
t.run();
