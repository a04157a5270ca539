// The flags as documented, as printed by --help and as parsed agree: README.md's "Options" table, the server's
// --help (HELP_TEXT) and parseConfig; docs/command-line.md's flag table, each command's --help and parseCliArgs.
// Same flags, each with a value or without in all three, the same environment variables meaning what the flag means,
// the same short forms and the defaults the README gives. The parsers are probed, not read: every word of
// src/config and src/cli is tried as a flag, so a flag added to either parser fails here until it is documented.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCliArgs, type CommandName } from '../../src/cli/args.ts';
import { parseBackupArgs } from '../../src/cli/backup.ts';
import { HELP_TEXT, parseConfig } from '../../src/config/config.ts';
import { ROOT } from '../helpers/paths.ts';
import { markdownTable } from './markdown-table.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'options-doc-'));
const ENV: NodeJS.ProcessEnv = { HOME: tmp, XDG_CACHE_HOME: path.join(tmp, 'cache') };
const aDir = path.join(tmp, 'a');
fs.mkdirSync(aDir);
/** Values tried in turn where a flag needs a valid one: the first its long form accepts. */
const CANDIDATES = [aDir, '4000', '30', '1', '0', '2025-01-02', 'UTC', 'box', '-home-me-app', 'auto', 'true', 'on', 'all', 'none'];
const REPORTS: CommandName[] = ['daily', 'weekly', 'monthly', 'session', 'blocks'];
/** backup and restore take a file argument and have their own parser (src/cli/backup.ts). */
const FILE_COMMANDS = ['backup', 'restore'];
const COMMANDS = [...REPORTS, 'statusline', 'update', 'limits', ...FILE_COMMANDS] as CommandName[];

type Kind = 'value' | 'bool';
interface Flag {
  kind: Kind;
  short?: string;
}

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

/** Every word of the parsers' folders: a superset of the flags they can accept. */
function words(...dirs: string[]): string[] {
  const out = new Set<string>();
  for (const d of dirs) {
    for (const f of fs.readdirSync(path.join(ROOT, d))) {
      for (const m of read(path.join(d, f)).matchAll(/[a-z][a-z0-9]*(?:-[a-z0-9]+)*/g)) out.add(m[0]);
    }
  }
  return [...out];
}

/** How a parser takes `--flag` alone: unknown, wanting a value, or as a switch. */
function probe(parse: () => unknown, unknown: RegExp): Kind | null {
  try {
    parse();
  } catch (err) {
    const msg = (err as Error).message;
    if (unknown.test(msg)) return null;
    if (/needs a value/.test(msg)) return 'value';
  }
  return 'bool';
}

function firstAccepted(flag: string, parse: (value: string) => unknown): string {
  for (const v of CANDIDATES) {
    try {
      parse(v);
      return v;
    } catch {
      // not a value this flag takes: try the next
    }
  }
  throw new Error(`--${flag} accepts none of CANDIDATES: add a value it takes there`);
}

/** A documented flag cell: `--name <value>` or `-s, --name <value>`. */
function flagsOfCell(cell: string): { names: string[]; short?: string; kind: Kind } {
  const names = [...cell.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!);
  const short = /(?:^|`)-([a-z]),/.exec(cell)?.[1];
  return { names, short, kind: cell.includes('<') ? 'value' : 'bool' };
}

/** A help text's flags: lines `  --name <value>  text` or `  -s, --name <value>  text`. */
function helpFlags(help: string): Map<string, Flag & { block: string }> {
  const out = new Map<string, Flag & { block: string }>();
  const lines = help.split('\n');
  lines.forEach((line, i) => {
    const m = /^ {2}(?:-([a-z]), )?--([a-z][a-z-]*)((?: <[^>]+>)?)/.exec(line);
    if (!m) return;
    let block = line;
    for (let j = i + 1; j < lines.length && /^ {6,}\S/.test(lines[j]!); j++) block += ` ${lines[j]!.trim()}`;
    out.set(m[2]!, { kind: m[3] ? 'value' : 'bool', short: m[1], block });
  });
  return out;
}

function diff(a: Iterable<string>, b: Iterable<string>): string[] {
  const bs = new Set(b);
  return [...new Set(a)].filter((x) => !bs.has(x)).sort();
}

interface ReadmeRow {
  flags: string[];
  kind: Kind;
  env: string[];
  /** The env names not written as `(alias …)`. */
  primaryEnv: string[];
  /** The default, when the cell is one code literal. */
  literal: string | null;
  defaultCell: string;
}

function readmeRows(): ReadmeRow[] {
  return markdownTable(read('README.md'), 'Options', 'Flag').map(([flagCell, envCell, defaultCell]) => {
    const env = [...envCell!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);
    const aliases = [...envCell!.matchAll(/alias `([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);
    const { names, kind } = flagsOfCell(flagCell!);
    return { flags: names, kind, env, primaryEnv: env.filter((e) => !aliases.includes(e)), literal: /^`([^`]+)`$/.exec(defaultCell!)?.[1] ?? null, defaultCell: defaultCell! };
  });
}

const server = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseConfig(argv, { ...ENV, ...env }, 'linux');

const t = suite('flags: docs, --help and the parsers agree');

t('the server: README.md "Options", --help and parseConfig list the same flags, each with or without a value', () => {
  const rows = readmeRows();
  const readme = new Map(rows.flatMap((r) => r.flags.map((f) => [f, r.kind] as const)));
  const help = helpFlags(HELP_TEXT);
  const parser = new Map<string, Kind>();
  for (const w of words('src/config')) {
    const kind = probe(() => server([`--${w}`]), /^Unknown option|^Unexpected argument/);
    if (kind) parser.set(w, kind);
  }
  assert.ok(parser.has('port') && parser.has('offline'), `the parser was probed: ${[...parser.keys()].join(', ')}`);
  assert.equal(diff(parser.keys(), readme.keys()), [], 'flags the server accepts but README.md\'s "Options" table lacks (add a row)');
  assert.equal(diff(readme.keys(), parser.keys()), [], 'flags in README.md\'s "Options" table the server does not accept');
  assert.equal(diff(parser.keys(), help.keys()), [], 'flags the server accepts but its --help (HELP_TEXT) does not list');
  assert.equal(diff(help.keys(), parser.keys()), [], 'flags in the server\'s --help it does not accept');
  for (const [flag, kind] of parser) {
    assert.is(readme.get(flag), kind, `--${flag}: README.md writes it ${readme.get(flag) === 'value' ? 'with' : 'without'} a <value>`);
    assert.is(help.get(flag)?.kind, kind, `--${flag}: --help writes it ${help.get(flag)?.kind === 'value' ? 'with' : 'without'} a <value>`);
  }
});

t('the server: each environment variable means what its flag means, and the README\'s defaults are the parser\'s', () => {
  const rows = readmeRows();
  const help = helpFlags(HELP_TEXT);
  for (const row of rows) {
    for (const flag of row.flags) {
      const helpEnv = [...(help.get(flag)?.block.matchAll(/\(([A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*)[;)]/g) ?? [])].flatMap((m) => m[1]!.split(', '));
      assert.equal(diff(helpEnv, row.env), [], `--${flag}: environment variables --help names but README.md does not`);
      for (const e of row.primaryEnv) assert.ok(helpEnv.includes(e), `--${flag}: README.md names ${e}, --help does not`);
      if (row.kind === 'value') {
        const v = firstAccepted(flag, (x) => server([`--${flag}`, x]));
        for (const e of row.env) assert.equal(server([], { [e]: v }), server([`--${flag}`, v]), `${e}=${v} means --${flag} ${v}`);
        if (row.literal !== null) {
          assert.equal(server([`--${flag}`, row.literal]), server([]), `--${flag}: README.md's default \`${row.literal}\` is the parser's`);
          const helpDefault = /default ([^;),\s]+)/.exec(help.get(flag)?.block ?? '')?.[1];
          if (helpDefault !== undefined) assert.is(helpDefault, row.literal, `--${flag}: --help's default is README.md's`);
        }
      } else if (row.defaultCell === 'off') {
        assert.not.equal(server([`--${flag}`]), server([]), `--${flag} changes something (README.md: default off)`);
      }
    }
  }
  // The variables without a flag (hub mode, the probe's CLI) are named by --help too, and --help names none the README does not.
  const readmeEnv = rows.flatMap((r) => r.env);
  for (const row of rows.filter((r) => !r.flags.length)) {
    for (const e of row.primaryEnv) assert.ok(HELP_TEXT.includes(e), `README.md names ${e}, --help does not`);
  }
  const helpEnvLine = /^Environment:.*$/m.exec(HELP_TEXT)?.[0] ?? '';
  const named = [...helpEnvLine.matchAll(/\b[A-Z][A-Z0-9_]*_[A-Z0-9_]+\b/g)].map((m) => m[0]);
  assert.ok(named.length > 0, 'the help has an Environment line');
  assert.equal(diff(named, readmeEnv), [], 'variables --help names but README.md\'s "Options" table lacks');
});

t('the commands: docs/command-line.md, each command\'s --help and parseCliArgs list the same flags and short forms', () => {
  const rows = markdownTable(read('docs/command-line.md'), 'Commands and their flags', 'Flag').map(([flagCell, commandsCell]) => {
    const cmds = commandsCell!.split(',').map((c) => c.trim());
    const of = cmds.flatMap((c): CommandName[] => (c === 'every command' ? COMMANDS : c === 'reports' ? REPORTS : [c as CommandName]));
    for (const c of of) assert.ok(COMMANDS.includes(c), `docs/command-line.md: unknown command "${c}"`);
    return { ...flagsOfCell(flagCell!), commands: of };
  });
  const universe = words('src/cli', 'src/config');
  const cli = (argv: string[]) => (FILE_COMMANDS.includes(argv[0]!) ? parseBackupArgs(argv, ENV) : parseCliArgs(argv, ENV));
  for (const cmd of COMMANDS) {
    const docs = new Map<string, Flag>();
    for (const r of rows.filter((x) => x.commands.includes(cmd))) for (const n of r.names) docs.set(n, { kind: r.kind, short: r.short });
    const help = helpFlags(cli([cmd, '--help']).help ?? '');
    const parser = new Map<string, Kind>();
    for (const w of universe) {
      const kind = probe(() => cli([cmd, `--${w}`]), /^Unknown option for|^Unexpected argument/);
      if (kind) parser.set(w, kind);
    }
    assert.ok(parser.has('help') && parser.has('dir'), `${cmd}: the parser was probed`);
    assert.equal(diff(parser.keys(), docs.keys()), [], `${cmd}: flags it accepts but docs/command-line.md does not list for it`);
    assert.equal(diff(docs.keys(), parser.keys()), [], `${cmd}: flags docs/command-line.md lists for it that it does not accept`);
    assert.equal(diff(parser.keys(), help.keys()), [], `${cmd}: flags it accepts but its --help does not list`);
    assert.equal(diff(help.keys(), parser.keys()), [], `${cmd}: flags its --help lists that it does not accept`);
    for (const [flag, kind] of parser) {
      assert.is(docs.get(flag)?.kind, kind, `${cmd} --${flag}: with or without a <value> in docs/command-line.md`);
      assert.is(help.get(flag)?.kind, kind, `${cmd} --${flag}: with or without a <value> in its --help`);
      assert.is(help.get(flag)?.short, docs.get(flag)?.short, `${cmd} --${flag}: the same short form in --help and docs/command-line.md`);
    }
    // Short forms: each letter the parser takes is a documented one, and means its long flag.
    for (const c of 'abcdefghijklmnopqrstuvwxyz') {
      const taken = probe(() => cli([cmd, `-${c}`]), /^Unknown option for|^Unexpected argument/) !== null;
      const long = [...docs].find(([, f]) => f.short === c)?.[0];
      assert.is(taken, long !== undefined, `${cmd} -${c}: ${taken ? 'accepted but not documented' : 'documented but not accepted'}`);
      if (!long) continue;
      if (docs.get(long)!.kind === 'bool') assert.equal(cli([cmd, `-${c}`]), cli([cmd, `--${long}`]), `${cmd}: -${c} is --${long}`);
      else {
        const v = firstAccepted(long, (x) => cli([cmd, `--${long}`, x]));
        assert.equal(cli([cmd, `-${c}`, v]), cli([cmd, `--${long}`, v]), `${cmd}: -${c} ${v} is --${long} ${v}`);
      }
    }
  }
});

t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
t.run();
