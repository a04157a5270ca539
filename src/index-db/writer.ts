// The only code that writes the index. Every public write is atomic (a savepoint of the group
// commit, see write()), and the writer's memory follows the file: what a failed write or a failed
// commit rolled back is rolled back in memory too (UndoLog).
// Dedup (decisions.md): key = message.id + requestId (global), else message.id within the session,
// else file + offset. The winning copy has the most output tokens; on a tie the earliest file
// (first timestamp, then path, then offset). Losing copies from other files are kept as alternates.
// A batch arrives with its rows decided and summed by the parse worker (workers/fold.ts): the best copy of each key
// within it and its rollup groups by names; the writer settles each row against the stored copy of its key.
import type Database from 'better-sqlite3';
import { ianaZone } from '../calendar/zone.ts';
import { dedupKey, foldBatch } from '../workers/fold.ts';
import {
  decodeStrings, FLAG, GROUP, GROUP_COLS, hashKey, NUM, NUM_COLS, STR, STR_COLS, TOOL, TOOL_COLS, type BatchFold, type UsageBatch,
} from '../workers/protocol.ts';
import { IdMaps, type FileInfo } from './id-maps.ts';
import { packKey } from './key-packing.ts';
import { IndexWriteError, isEnvironmental, writeErrorOf, type IndexFailure } from './errors.ts';
import type { KeyIndex } from './key-index.ts';
import { StoredKeys } from './stored-keys.ts';
import { PriceTable } from '../pricing/table.ts';
import { RollupDelta, RollupStatements, type GroupSums, type Msg } from './rollup.ts';
import { MessageInserts } from './message-inserts.ts';
import type { SettingChange } from './settings.ts';
import { HOUR_MS, LocalClock, timeZone } from './time.ts';
import type { FileCursor, FileRole } from './types.ts';
import { UndoLog } from './undo-log.ts';

/** The stored message columns (the key as `packKey` stores it; `key` is the virtual column that reads it back). */
const MSG_COLS =
  'hkey, stored_key, file_id, off, ts, project_id, session_id, model_id, agent_id, input, output, cache_create, cache_read, cache_1h, web_search, fast, cost_usd, cost, tools, branch_id';
/** The message columns under the names of `Msg`, from table alias `t`. */
const msgSelect = (t: string): string => `${t}.id, ${t}.hkey, ${t}.key, ${t}.file_id AS file, ${t}.off, ${t}.ts, ${t}.project_id AS project,
  ${t}.session_id AS session, ${t}.model_id AS model, ${t}.agent_id AS agent, ${t}.input, ${t}.output,
  ${t}.cache_create AS cacheCreate, ${t}.cache_read AS cacheRead, ${t}.cache_1h AS cache1h, ${t}.web_search AS webSearch,
  ${t}.fast, ${t}.cost_usd AS costUSD, ${t}.cost, ${t}.tools, ${t}.branch_id AS branch`;

type StoredMsg = Msg & { id: number };

/** What placing a message did: stored it as a new key, replaced the stored copy (returned), or kept the stored one. */
type Placed = 'new' | 'kept' | StoredMsg;

/** A group of a batch's winners, with the names its ids stand for. */
type NamedGroup = GroupSums & { sid: string; modelName: string };

/** Longest time a write waits to become durable. */
const COMMIT_MS = 1000;

export interface WriterOptions {
  log: (msg: string) => void;
  /** An SQLite statement reported a damaged file. */
  onCorrupt: (err: IndexWriteError) => void;
}

/**
 * The WHERE clause of a reprice's rows: the models' own (ids are the index's integers), none for every model, so that
 * SQLite empties a table at once.
 */
const ofModels = (models: readonly number[] | null): string => (models === null ? '' : `WHERE model_id IN (${models.join(',')})`);

/** The local rollups without costs, from `temp.local_msgs` of every message (rebuildLocal). */
const LOCAL_COUNTS = `DELETE FROM sessions_daily;
  INSERT INTO sessions_daily SELECT lhour / 24, project_id, session_id, count(*) FROM local_msgs GROUP BY 1, 2, 3;
  DELETE FROM tools_daily;
  WITH RECURSIVE split(day, project_id, tool, rest) AS (
    SELECT lhour / 24, project_id, NULL, tools || ',' FROM local_msgs WHERE tools != ''
    UNION ALL
    SELECT day, project_id, substr(rest, 1, instr(rest, ',') - 1), substr(rest, instr(rest, ',') + 1) FROM split WHERE rest != ''
  )
  INSERT INTO tools_daily SELECT day, project_id, tool, count(*) FROM split WHERE tool IS NOT NULL GROUP BY 1, 2, 3;
  DELETE FROM tools_daily_all;
  INSERT INTO tools_daily_all SELECT day, tool, sum(count) FROM tools_daily GROUP BY 1, 2;`;

/** A message's values of MSG_COLS, appended to `out` (the buffered inserts' one array). */
const pushParams = (m: Msg, out: unknown[]): void => {
  out.push(m.hkey, packKey(m.key), m.file, m.off, m.ts, m.project, m.session, m.model, m.agent, m.input, m.output,
    m.cacheCreate, m.cacheRead, m.cache1h, m.webSearch, m.fast, m.costUSD, m.cost, m.tools, m.branch);
};
const params = (m: Msg): unknown[] => {
  const out: unknown[] = [];
  pushParams(m, out);
  return out;
};

export class Writer {
  readonly ids: IdMaps;
  private readonly undo = new UndoLog();
  private prices: PriceTable | null = null;
  /**
   * What the stored costs were computed with, as of the last write (meta `price_fingerprint`; null: not read yet):
   * the installed table's `costFingerprint` over every stored model name.
   */
  private costsFingerprint: string | null = null;
  /** The table and the number of model names that fingerprint was last made for: nothing to check until one changes. */
  private costsTable: PriceTable | null = null;
  private costsModels = -1;
  /** The kind of the last failed write or commit, until one succeeds (logged once). */
  private failing: string | null = null;
  private version = 0;
  private timer: NodeJS.Timeout | null = null;
  /** process.env.TZ when the daily rollup was last found matching (null: not checked yet). */
  private tzEnv: string | undefined | null = null;
  /** The zone the local rollups are in, as of that check. */
  private zone = '';
  /** process.env.TZ when foldZone() last resolved the zone (null: not yet), and what it answered. */
  private foldEnv: string | undefined | null = null;
  private foldZoneName: string | null = null;
  /** Local hours of instants, in the zone the local rollups were built in. */
  private readonly clock = new LocalClock();
  private lhourOf = (ms: number): number => this.clock.lhour(ms);
  private readonly rollups: RollupStatements;
  private readonly s: Record<string, Database.Statement>;
  private readonly applyTx: (batch: UsageBatch, role: FileRole, size: number, mtimeMs: number, careful: boolean) => void;
  private readonly placeTx: (m: Msg, file: FileInfo) => void;
  private readonly resetTx: (path: string) => void;
  private readonly repriceTx: (models: readonly number[] | null) => void;
  private readonly keys: StoredKeys;
  /** A batch's new rows, placed by placeWinners, wait here for one write at its end. */
  private readonly inserts: MessageInserts<Msg>;
  private fallback: PriceTable | null = null;

  constructor(private readonly db: Database.Database, private readonly opts: WriterOptions) {
    this.ids = new IdMaps(db, this.undo);
    this.keys = new StoredKeys(db, opts.log);
    this.rollups = new RollupStatements(db);
    this.inserts = new MessageInserts(db, MSG_COLS, pushParams);
    const p = (sql: string): Database.Statement => db.prepare(sql);
    this.s = {
      insert: p(`INSERT INTO messages (${MSG_COLS}) VALUES (${Array(20).fill('?').join(',')})`),
      byId: p(`SELECT ${msgSelect('m')} FROM messages m WHERE id = ?`),
      replace: p(`UPDATE messages SET (${MSG_COLS}) = (${Array(20).fill('?').join(',')}) WHERE id = ?`),
      demote: p(`INSERT INTO alternates (${MSG_COLS}) SELECT ${MSG_COLS} FROM messages WHERE id = ?`),
      insertAlt: p(`INSERT INTO alternates (${MSG_COLS}) VALUES (${Array(20).fill('?').join(',')})`),
      fileMsgs: p(`SELECT ${msgSelect('m')} FROM messages m WHERE file_id = ?`),
      deleteFileMsgs: p('DELETE FROM messages WHERE file_id = ?'),
      bestAlt: p(`SELECT ${msgSelect('a')}
        FROM alternates a JOIN files f ON f.id = a.file_id WHERE a.hkey = ? AND a.key = ?
        ORDER BY a.output DESC, coalesce(f.first_ts, 9e15), f.path, a.off LIMIT 1`),
      promote: p(`INSERT INTO messages (${MSG_COLS}) SELECT ${MSG_COLS} FROM alternates WHERE id = ?`),
      deleteAlt: p('DELETE FROM alternates WHERE id = ?'),
      deleteFileAlts: p('DELETE FROM alternates WHERE file_id = ?'),
      fileRole: p('UPDATE files SET project_id = ?, session_id = ?, agent_id = ?, main = ? WHERE id = ?'),
      fileFirstTs: p('UPDATE files SET first_ts = ? WHERE id = ?'),
      fileCursor: p(`UPDATE files SET size = ?, mtime = ?, off = ?, head = CASE WHEN ? = '' THEN head ELSE ? END, gone = 0, error = NULL,
        lines = lines + ?, usage_lines = usage_lines + ?, blank = blank + ?, malformed = malformed + ?, giant = giant + ?,
        out_of_range = out_of_range + ? WHERE id = ?`),
      fileReset: p(`UPDATE files SET size = 0, mtime = 0, off = 0, head = '', first_ts = NULL,
        lines = 0, usage_lines = 0, blank = 0, malformed = 0, giant = 0, out_of_range = 0 WHERE id = ?`),
      projectCwd: p('UPDATE projects SET cwd = ?, cwd_ts = ? WHERE id = ? AND (cwd_ts IS NULL OR cwd_ts <= ?)'),
      unresolved: p('SELECT encoded AS project, cwd FROM projects WHERE repo IS NULL AND cwd IS NOT NULL'),
      projectRepo: p('UPDATE projects SET repo = ? WHERE encoded = ? AND repo IS NULL'),
      sessionCwd: p('UPDATE sessions SET cwd = ? WHERE id = ?'),
      sessionTitle: p(`UPDATE sessions SET title = ?, title_kind = ? WHERE id = ? AND (? = 'custom' OR title_kind IS NOT 'custom')`),
      sessionPrompt: p('UPDATE sessions SET first_prompt = ? WHERE id = ? AND first_prompt IS NULL'),
      agentPrompt: p('UPDATE sessions SET agent_prompt = ? WHERE id = ? AND agent_prompt IS NULL'),
      gone: p('UPDATE files SET gone = 1 WHERE path = ?'),
      unreadable: p('UPDATE files SET error = ? WHERE id = ?'),
      cursor: p(`SELECT f.size, f.mtime AS mtimeMs, f.off AS offset, f.head, f.gone, f.main, f.agent_id IS NOT NULL AS sub,
          s.first_prompt IS NOT NULL AS hasPrompt, s.agent_prompt IS NOT NULL AS hasAgentPrompt
        FROM files f LEFT JOIN sessions s ON s.id = f.session_id WHERE f.path = ?`),
      getMeta: p('SELECT value FROM meta WHERE key = ?'),
      setMeta: p('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      setSetting: p('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      deleteSetting: p('DELETE FROM settings WHERE key = ?'),
      setPriced: p('UPDATE models SET priced = ? WHERE id = ?'),
    };
    this.applyTx = db.transaction(this.apply.bind(this));
    this.placeTx = db.transaction((m: Msg, file: FileInfo) => {
      const delta = new RollupDelta(this.lhourOf);
      const placed = this.place(m, file);
      if (placed === 'kept') return;
      if (placed !== 'new') delta.add(placed, -1);
      delta.add(m, 1);
      delta.flush(this.rollups);
    });
    this.resetTx = db.transaction(this.reset.bind(this));
    this.repriceTx = db.transaction(this.reprice.bind(this));
    db.function('cd_lhour', { deterministic: true }, ((ms: number) => this.clock.lhour(ms)) as (...args: unknown[]) => number);
    // Repricing runs in SQL over every stored copy; this calls back into the current table.
    db.function('cd_cost', { deterministic: true }, ((model: number, input: number, output: number, cacheCreate: number,
      cacheRead: number, cache1h: number, webSearch: number, fast: number, costUSD: number | null) =>
      this.prices!.cost({
        model: this.ids.modelNames.get(model) ?? '', input, output, cacheCreate, cacheRead, cache1h, webSearch,
        fast: fast === 1, costUSD,
      }).cost) as (...args: unknown[]) => number);
  }

  dataVersion(): number {
    return this.version;
  }

  /** The kind of the last failed write or commit while no write has succeeded since (null: writes work). */
  failure(): IndexFailure | null {
    return this.failing as IndexFailure | null;
  }

  /**
   * The table for reads (cache savings): the installed one, else the built-in one. Reading never
   * installs a table, since that may reprice every stored cost while the real catalogue is still loading.
   */
  priceTable(): PriceTable {
    return this.prices ?? (this.fallback ??= PriceTable.builtin());
  }

  cursorOf(file: string): FileCursor | undefined {
    const r = this.s.cursor!.get(file) as
      | { size: number; mtimeMs: number; offset: number; head: string; gone: number; main: number; sub: number; hasPrompt: number | null; hasAgentPrompt: number | null }
      | undefined;
    if (!r) return undefined;
    // A session's own transcript supplies its first prompt; its subagents' files one for a session that has none
    // (its title then); other files never ask for one.
    const hasPrompt = r.main === 1 ? r.hasPrompt === 1 : r.sub === 1 ? r.hasPrompt === 1 || r.hasAgentPrompt === 1 : true;
    return { size: r.size, mtimeMs: r.mtimeMs, offset: r.offset, head: r.head, gone: r.gone === 1, hasPrompt };
  }

  /**
   * Throws IndexWriteError when the batch could not be written (its cursor then stays where it was, so
   * the same bytes are read again later). A row the index rejects is skipped and counted, never its file.
   */
  applyBatch(batch: UsageBatch, role: FileRole, size: number, mtimeMs: number): void {
    // A write needs costs: with no table installed yet, the built-in one is (and may reprice).
    if (!this.prices) this.prices = this.priceTable();
    this.syncCosts();
    this.syncTimeZone();
    try {
      this.write(() => this.applyTx(batch, role, size, mtimeMs, false));
    } catch (err) {
      if (!(err instanceof IndexWriteError) || err.kind !== 'rejected') throw err;
      // One of its rows broke a rule of the schema: place the rows one by one, skipping those that fail.
      this.write(() => this.applyTx(batch, role, size, mtimeMs, true));
    }
    // A model the batch added joins the stored fingerprint in the same transaction as its rows (left out, the next
    // start would reprice for it); a failure here only leaves that to the next check.
    this.quietly(() => this.syncCosts());
  }

  resetFile(file: string): void {
    if (!this.ids.files.has(file)) return;
    this.syncTimeZone();
    this.write(() => this.resetTx(file));
  }

  /** Bookkeeping only: when the file cannot be written now, the next change or check does it again. */
  markGone(file: string): void {
    this.quietly(() => this.write(() => this.s.gone!.run(file)));
  }

  markUnreadable(file: string, error: string): void {
    this.quietly(() => this.write(() => this.s.unreadable!.run(error, this.ids.file(file).id)));
  }

  unresolvedRepositories(): { project: string; cwd: string }[] {
    return this.s.unresolved!.all() as { project: string; cwd: string }[];
  }

  /** Bookkeeping only: when it cannot be written now, the folder is resolved again at the next start. */
  setRepository(project: string, repository: string): void {
    this.quietly(() => this.write(() => this.s.projectRepo!.run(repository, project)));
  }

  setPrices(table: PriceTable): void {
    this.prices = table;
    this.quietly(() => this.syncCosts());
  }

  /**
   * Reprices the stored costs of the models that the installed table prices otherwise than the table they were
   * computed with (meta `price_models` says which). A new catalogue that only adds or changes other models (LiteLLM's
   * changes mostly) reprices nothing: a reprice blocks the server, ~12 s at 10 GiB for every model.
   */
  private syncCosts(): void {
    const table = this.prices!;
    const names = this.ids.modelNames;
    if (table === this.costsTable && names.size === this.costsModels) return;
    const stored = (this.costsFingerprint ??= this.metaValue('price_fingerprint') ?? '');
    const wanted = table.costFingerprint(names.values());
    if (stored !== wanted) {
      // The models added since the last check were priced with this same table. An index written before the
      // fingerprint covered the stored models only holds the whole table's: its costs are this table's when it matches.
      const current = table === this.costsTable || stored === table.fingerprint;
      const signatures = Object.fromEntries([...names.values()].map((name) => [name, table.costFingerprint([name])]));
      this.write(() => {
        if (!current) this.repriceTx(this.changedModels(signatures));
        this.s.setMeta!.run('price_fingerprint', wanted);
        this.s.setMeta!.run('price_models', JSON.stringify(signatures));
        const was = { table: this.costsTable, models: this.costsModels };
        this.undo.push(() => {
          this.costsFingerprint = stored;
          this.costsTable = was.table;
          this.costsModels = was.models;
        });
      });
    }
    this.costsFingerprint = wanted;
    this.costsTable = table;
    this.costsModels = names.size;
  }

  /**
   * The ids of the models whose costs `signatures` (each stored name's `costFingerprint` under the new table) change,
   * against meta `price_models` as the last sync wrote it; null for all of them (no such record, or every model).
   */
  private changedModels(signatures: Record<string, string>): number[] | null {
    let was: unknown;
    try {
      was = JSON.parse(this.metaValue('price_models') ?? 'null');
    } catch {
      return null;
    }
    if (typeof was !== 'object' || was === null) return null;
    const before = was as Record<string, unknown>;
    const changed: number[] = [];
    for (const [id, name] of this.ids.modelNames) if (before[name] !== signatures[name]) changed.push(id);
    return changed.length === this.ids.modelNames.size ? null : changed;
  }

  /** A value of the index's meta table (undefined: none). */
  private metaValue(key: string): string | undefined {
    return (this.s.getMeta!.get(key) as { value: string } | undefined)?.value;
  }

  /** Runs a write whose failure has been logged (writeFailed) and needs no more than that. */
  private quietly(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      if (!(err instanceof IndexWriteError)) throw err;
    }
  }

  /** Sets a meta key; a failure (a full disk) is logged once and otherwise ignored. */
  quietMeta(key: string, value: string): void {
    this.quietly(() => this.write(() => this.s.setMeta!.run(key, value)));
  }

  /**
   * Writes settings and commits at once (with whatever else is pending), so they are durable when this returns.
   * Throws IndexWriteError when the file cannot take them (a full disk: nothing of them is kept).
   */
  writeSettings(changes: readonly SettingChange[]): void {
    this.write(() => {
      for (const [key, value] of changes) {
        if (value === null) this.s.deleteSetting!.run(key);
        else this.s.setSetting!.run(key, value);
      }
    });
    if (!this.commit()) throw new IndexWriteError((this.failing ?? 'io') as IndexFailure, 'the index file cannot be written now', null);
  }

  /** Rebuilds the local rollups when the process time zone is not the one they were built in. */
  syncTimeZone(): void {
    // Resolving the zone costs ~0.1 ms; it can only change with process.env.TZ.
    const env = process.env.TZ;
    if (env === this.tzEnv) return;
    const zone = timeZone();
    this.zone = zone;
    if (this.metaValue('daily_tz') !== zone) {
      this.write(() => {
        this.db.transaction(() => this.rebuildDaily(zone))();
        this.undo.push(() => {
          this.tzEnv = null; // rolled back: look again
        });
      });
    }
    this.tzEnv = env;
  }

  /**
   * The zone a parse worker folds a batch's local hours in (fold.ts): the process's, when Intl knows it by name (a
   * POSIX TZ such as `XYZ-3` has none: the writer folds such batches itself). Resolved again only when TZ changes.
   */
  foldZone(): string | null {
    const env = process.env.TZ;
    if (env !== this.foldEnv) {
      const zone = timeZone();
      try {
        ianaZone(zone);
        this.foldZoneName = zone;
      } catch {
        this.foldZoneName = null;
      }
      this.foldEnv = env;
    }
    return this.foldZoneName;
  }

  /** The local rollups from the messages themselves: each counts on the local day and hour of its own timestamp. */
  private rebuildDaily(zone: string): void {
    this.rebuildLocal(null);
    this.s.setMeta!.run('daily_tz', zone);
  }

  /**
   * The local rollups of the messages of `models` (null: every model) in the process's zone: those with costs, and for
   * every model those without (sessions and tools per local day, which a new price of some models leaves as they are).
   */
  private rebuildLocal(models: readonly number[] | null): void {
    const where = ofModels(models);
    this.clock.clear();
    this.db.exec(`DROP TABLE IF EXISTS temp.local_msgs;
      CREATE TEMP TABLE local_msgs AS SELECT CAST(cd_lhour(ts) AS INTEGER) AS lhour, ts, project_id, session_id, model_id, agent_id, input,
        output, cache_create, cache_read, cache_1h, web_search, cost, tools FROM messages ${where};
      DELETE FROM usage_daily ${where};
      INSERT INTO usage_daily SELECT lhour / 24, project_id, model_id, agent_id IS NOT NULL, count(*), sum(input), sum(output),
        sum(cache_create), sum(cache_read), sum(cache_1h), sum(web_search), sum(cost), min(ts), max(ts)
        FROM local_msgs GROUP BY 1, 2, 3, 4;
      DELETE FROM usage_daily_all;
      INSERT INTO usage_daily_all SELECT day, model_id, sub, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read),
        sum(cache_1h), sum(web_search), sum(cost), min(first_ts), max(last_ts) FROM usage_daily GROUP BY 1, 2, 3;
      DELETE FROM cost_local_hourly ${where};
      INSERT INTO cost_local_hourly SELECT lhour, project_id, model_id, count(*), sum(cost) FROM local_msgs GROUP BY 1, 2, 3;
      DELETE FROM cost_local_hourly_all;
      INSERT INTO cost_local_hourly_all SELECT lhour, sum(messages), sum(cost) FROM cost_local_hourly GROUP BY 1;
      ${models === null ? LOCAL_COUNTS : ''}
      DROP TABLE temp.local_msgs;`);
  }

  /**
   * Makes every write so far durable (also done COMMIT_MS after the first pending write, and by close).
   * Never throws: a commit that fails (full disk, I/O error) drops the pending writes from the file and
   * from memory alike, is logged once, and their files' cursors stay behind, so they are read again.
   * Returns whether everything written so far is durable.
   */
  commit(): boolean {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.db.inTransaction) return this.failing === null;
    try {
      this.db.exec('COMMIT');
      this.undo.clear();
      if (this.failing !== null) this.opts.log('index writes work again');
      this.failing = null;
      return true;
    } catch (err) {
      if (this.db.inTransaction) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // the connection already rolled back, or cannot: either way nothing pending is kept
        }
      }
      this.abandonPending();
      this.writeFailed(writeErrorOf(err));
      return false;
    }
  }

  /**
   * Group commit: writes join one open transaction, committed COMMIT_MS after the first of them.
   * Each write is still atomic (better-sqlite3 nests it as a savepoint) and carries its file cursor,
   * so a crash loses at most the last moments of work, which is read again from the cursors on disk.
   * The connection sees its own pending writes, so queries are never behind. Committing once per
   * batch instead costs more than the batch itself (every commit rewrites the touched key-index pages).
   */
  private write(fn: () => unknown): void {
    try {
      if (!this.db.inTransaction) {
        this.db.exec('BEGIN');
        this.timer = setTimeout(() => this.commit(), COMMIT_MS);
        this.timer.unref();
      }
    } catch (err) {
      throw this.writeFailed(writeErrorOf(err));
    }
    const mark = this.undo.mark();
    try {
      fn();
    } catch (err) {
      // A failed savepoint is rolled back by better-sqlite3; an I/O error or a full disk may make SQLite
      // roll back the whole transaction, and with it every write since the last commit.
      if (this.db.inTransaction) this.undo.rollbackTo(mark);
      else this.abandonPending();
      this.version++;
      const failure = writeErrorOf(err);
      throw failure.kind === 'rejected' ? failure : this.writeFailed(failure);
    }
    this.version++;
  }

  /** The transaction is gone: memory goes back to the last commit. */
  private abandonPending(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.undo.rollbackTo(0);
  }

  /** Logs a failure of the file (not of a row) once per kind until a write succeeds; reports corruption. */
  private writeFailed(err: IndexWriteError): IndexWriteError {
    if (this.failing !== err.kind) {
      this.failing = err.kind;
      this.opts.log(`index write failed (${err.message}); serving what is committed and retrying`);
    }
    if (err.kind === 'corrupt') this.opts.onCorrupt(err);
    return err;
  }

  private priced = (name: string): boolean => name.startsWith('<') || this.prices!.lookup(name) !== null;

  private costOf(model: string, m: Omit<Msg, 'cost'>): number {
    return this.prices!.cost({
      model, input: m.input, output: m.output, cacheCreate: m.cacheCreate, cacheRead: m.cacheRead,
      cache1h: m.cache1h, webSearch: m.webSearch, fast: m.fast === 1, costUSD: m.costUSD,
    }).cost;
  }

  private apply(batch: UsageBatch, role: FileRole, size: number, mtimeMs: number, careful: boolean): void {
    const c = this.ids;
    const project = c.project(role.project, role.machine ?? null);
    const file = c.file(batch.path);
    const meta = batch.meta;
    // The session the file's own facts (title, prompt, cwd) belong to; none for a project-root file without ids.
    const sid = role.session ?? meta.sessionId ?? null;
    const session = sid === null ? null : c.session(sid, project);
    const main = role.session !== null && role.agentId === null;
    const agent = role.agentId !== null && role.session !== null && session !== null
      ? c.agent(session, role.agentId, role.agentType, role.agentDescription)
      : null;
    this.s.fileRole!.run(project, role.session !== null ? session : null, agent, main ? 1 : 0, file.id);
    if (meta.firstTs !== undefined && (file.firstTs === null || meta.firstTs < file.firstTs)) {
      c.setFirstTs(file, meta.firstTs);
      this.s.fileFirstTs!.run(meta.firstTs, file.id);
    }
    if (meta.cwd) {
      const at = file.firstTs ?? 0;
      this.s.projectCwd!.run(meta.cwd, at, project, at);
      if (session !== null) this.s.sessionCwd!.run(meta.cwd, session);
    }
    if (session !== null && meta.title && meta.titleKind) this.s.sessionTitle!.run(meta.title, meta.titleKind, session, meta.titleKind);
    if (session !== null && meta.firstPrompt && main) this.s.sessionPrompt!.run(meta.firstPrompt, session);
    if (agent !== null && meta.firstPrompt) this.s.agentPrompt!.run(meta.firstPrompt, session);

    const strs = decodeStrings(batch.strTable);
    const fold = this.foldOf(batch, strs, role);
    const invalid = fold.unstorable;
    const groups = this.groupsOf(fold, project);
    const winner = (w: number): Msg => this.winnerOf(batch, strs, fold, groups, role, file, w);
    let rejected = 0;
    let reason = '';
    if (!careful) {
      const delta = new RollupDelta(this.lhourOf);
      this.inserts.gather(() => this.placeWinners(fold, groups, file, winner, delta));
      for (const g of groups) delta.addGroup(g);
      const t = fold.tools;
      for (let at = 0; at < t.length; at += TOOL_COLS) {
        delta.addTool(t[at + TOOL.hour]!, t[at + TOOL.day]!, project, fold.names[t[at + TOOL.tool]!]!, t[at + TOOL.n]!);
      }
      delta.flush(this.rollups);
    } else {
      for (let w = 0; w < fold.winners.length; w++) {
        const m = winner(w);
        const mark = this.undo.mark();
        try {
          this.placeTx(m, file);
        } catch (err) {
          const failure = writeErrorOf(err);
          if (isEnvironmental(failure)) throw err;
          this.undo.rollbackTo(mark);
          rejected++;
          reason = failure.message;
        }
      }
    }
    if (invalid) this.opts.log(`skipped ${invalid} usage line${invalid === 1 ? '' : 's'} of ${batch.path} with a count, cost or timestamp the index cannot store`);
    if (rejected) this.opts.log(`skipped ${rejected} usage line${rejected === 1 ? '' : 's'} of ${batch.path} that the index rejected (${reason})`);

    const st = batch.stats;
    // Skipped and counted, and the file read on: rows out of range as such, rows a statement rejected as malformed.
    this.s.fileCursor!.run(size, mtimeMs, batch.consumedTo, batch.head, batch.head,
      st.lines, st.usageLines, st.blank, st.malformed + rejected, st.giant, st.outOfRange + invalid, file.id);
  }

  /**
   * Places each winner of a folded batch. The group's sums hold every winner: a row the index already holds (the same
   * line again, or a copy that loses to the stored one) is taken out again, and a replaced winner's old copy too.
   */
  private placeWinners(fold: BatchFold, groups: NamedGroup[], file: FileInfo, winner: (w: number) => Msg, delta: RollupDelta): void {
    for (let w = 0; w < fold.winners.length; w++) {
      const m = winner(w);
      const g = groups[fold.groupOf[w]!]!;
      g.cost += m.cost;
      const placed = this.place(m, file, true);
      if (placed === 'kept') {
        delta.add(m, -1);
        continue;
      }
      if (placed !== 'new') delta.add(placed, -1);
      if (g.first === null || m.ts < g.first) g.first = m.ts;
      if (g.last === null || m.ts > g.last) g.last = m.ts;
    }
  }

  /**
   * The batch's fold: the worker's, when it folded for this role and for the zone of the local rollups; else (another
   * zone since the task left, a batch built without one) folded here.
   */
  private foldOf(batch: UsageBatch, strs: readonly string[], role: FileRole): BatchFold {
    const f = batch.fold;
    if (f && f.zone === this.zone && f.session === role.session && f.agentId === role.agentId) return f;
    return foldBatch(batch, strs, { session: role.session, agentId: role.agentId, zone: this.zone }, this.lhourOf);
  }

  /** The fold's groups with their names mapped to ids, no cost and no kept times yet (the writer adds them). */
  private groupsOf(fold: BatchFold, project: number): NamedGroup[] {
    const c = this.ids;
    const g = fold.groups;
    const out: NamedGroup[] = [];
    for (let at = 0; at < g.length; at += GROUP_COLS) {
      const sid = fold.names[g[at + GROUP.session]!]!;
      const modelName = fold.names[g[at + GROUP.model]!]!;
      out.push({
        sid, modelName, hour: g[at + GROUP.hour]!, lhour: g[at + GROUP.lhour]!, project,
        session: c.session(sid, project), model: c.model(modelName, this.priced),
        sub: g[at + GROUP.sub]!, n: g[at + GROUP.n]!, input: g[at + GROUP.input]!, output: g[at + GROUP.output]!,
        cacheCreate: g[at + GROUP.cacheCreate]!, cacheRead: g[at + GROUP.cacheRead]!, cache1h: g[at + GROUP.cache1h]!,
        webSearch: g[at + GROUP.webSearch]!, cost: 0, first: null, last: null,
      });
    }
    return out;
  }

  /** The fold's `w`th winner as a message. */
  private winnerOf(batch: UsageBatch, strs: readonly string[], fold: BatchFold, groups: readonly NamedGroup[], role: FileRole, file: FileInfo, w: number): Msg {
    const c = this.ids;
    const { nums, flags, strIdx } = batch;
    const i = fold.winners[w]!;
    const g = groups[fold.groupOf[w]!]!;
    const n = i * NUM_COLS;
    const s = i * STR_COLS;
    const off = nums[n + NUM.offset]!;
    const key = dedupKey(strs[strIdx[s + STR.messageId]!]!, strs[strIdx[s + STR.requestId]!]!, g.sid) ?? `f${file.id} ${off}`;
    // The worker hashed the global key form; the others need the session or file id, known here only.
    const hkey = nums[n + NUM.hkey]!;
    const agentKey = role.agentId ?? (strs[strIdx[s + STR.agentId]!]! || null);
    const agent = agentKey === null
      ? null
      : role.session !== null && role.agentId !== null
        ? c.agent(g.session, agentKey, role.agentType, role.agentDescription)
        : c.agent(g.session, agentKey);
    const cost = nums[n + NUM.costUSD]!;
    const m: Msg = {
      hkey: Number.isNaN(hkey) ? hashKey(key) : hkey, key, file: file.id, off, ts: nums[n + NUM.ts]!, project: g.project,
      session: g.session, model: g.model, agent,
      input: nums[n + NUM.input]!, output: nums[n + NUM.output]!, cacheCreate: nums[n + NUM.cacheCreate]!,
      cacheRead: nums[n + NUM.cacheRead]!, cache1h: nums[n + NUM.cache1h]!, webSearch: nums[n + NUM.webSearch]!,
      fast: flags[i]! & FLAG.fast ? 1 : 0, costUSD: Number.isNaN(cost) ? null : cost, cost: 0,
      tools: strs[strIdx[s + STR.tools]!]!, branch: c.branch(strs[strIdx[s + STR.branch]!]!),
    };
    m.cost = this.costOf(g.modelName, m);
    return m;
  }

  /**
   * Inserts a message (`gathered`: into the batch's rows written at its end, message-inserts.ts), or settles it against
   * the stored copy of its key; the caller moves the rollups.
   */
  private place(m: Msg, file: FileInfo, gathered = false): Placed {
    let keys = this.keyIds();
    let old: StoredMsg | undefined;
    for (;;) {
      const id = keys.get(m.hkey);
      if (id === undefined) {
        this.setKey(m.hkey, gathered ? this.inserts.add(m) : Number(this.s.insert!.run(...params(m)).lastInsertRowid));
        return 'new';
      }
      // A batch's winners have distinct keys, so only another key of the same hash finds a row still buffered.
      if (this.inserts.holds(id)) this.inserts.flush();
      old = this.s.byId!.get(id) as StoredMsg | undefined;
      if (!old) {
        // A key with no message: the key index cannot be trusted for any key (stored-keys.ts distrust).
        this.inserts.flush();
        keys = this.keys.distrust();
        this.undo.push(() => this.keys.forget());
        continue;
      }
      if (old.key === m.key) break;
      m.hkey++; // another key owns this hash: probe the next slot
    }
    if (old.file === m.file && old.off === m.off) return 'kept'; // the same line again
    if (this.beats(m, file, old)) {
      if (old.file !== m.file) this.s.demote!.run(old.id);
      this.s.replace!.run(...params(m), old.id);
      return old;
    }
    if (old.file !== m.file) this.s.insertAlt!.run(...params(m));
    return 'kept';
  }

  /** Sets (id) or deletes (undefined) a key of the key index, undone with its write. */
  private setKey(hkey: number, id: number | undefined): void {
    const keys = this.keyIds();
    const was = keys.get(hkey);
    // Only added keys leave the saved key index true (the next writer reads the messages above its largest id).
    if (id === undefined || was !== undefined) this.keys.keyRemoved();
    if (id === undefined) keys.delete(hkey);
    else keys.set(hkey, id);
    this.undo.push(() => {
      if (was === undefined) keys.delete(hkey);
      else keys.set(hkey, was);
    });
  }

  /**
   * Reads up to `rows` more stored keys into the key index, in id order; true once it holds every stored winner. The
   * pipeline calls it in slices after the start-up scan, so that the first write after a restart does not stall on
   * reading them all (~1.7 s for 1.9M responses at 10 GiB). Nothing writes a message before the index is complete
   * (keyIds() reads the rest first), so the slices see the file as it was.
   */
  preloadKeys(rows: number): boolean {
    return this.keys.readAhead(rows);
  }

  /** hkey -> message id of every stored winner, read from the file once, then kept in step by the writer. */
  private keyIds(): KeyIndex {
    return this.keys.all();
  }

  /** After the last commit: closes the read-ahead's connection, and saves the key index beside the file when due. */
  close(): void {
    this.keys.close();
  }

  private beats(m: Msg, file: FileInfo, old: Msg): boolean {
    if (m.output !== old.output) return m.output > old.output;
    if (old.file === m.file) return m.off < old.off;
    const other = this.ids.filesById.get(old.file)!;
    const a = file.firstTs ?? Infinity;
    const b = other.firstTs ?? Infinity;
    if (a !== b) return a < b;
    return file.path < other.path;
  }

  private reset(file: string): void {
    const f = this.ids.files.get(file)!;
    const delta = new RollupDelta(this.lhourOf);
    const gone = this.s.fileMsgs!.all(f.id) as StoredMsg[];
    this.s.deleteFileMsgs!.run(f.id);
    this.s.deleteFileAlts!.run(f.id);
    for (const m of gone) {
      delta.add(m, -1);
      this.setKey(m.hkey, undefined);
      const alt = this.s.bestAlt!.get(m.hkey, m.key) as StoredMsg | undefined;
      if (!alt) continue;
      this.setKey(m.hkey, Number(this.s.promote!.run(alt.id).lastInsertRowid));
      this.s.deleteAlt!.run(alt.id);
      delta.add(alt, 1);
    }
    delta.flush(this.rollups);
    this.s.fileReset!.run(f.id);
    this.ids.setFirstTs(f, null);
  }

  /**
   * New prices (the installed table's) for the messages of `models` (null: every model): their costs, the rollups
   * built from them, and the priced flags. Rows of other models and the rollups without costs (sessions, tools) are
   * left as they are: a price change of one model is a fraction of a reprice of the whole history.
   */
  private reprice(models: readonly number[] | null): void {
    const names = this.ids.modelNames;
    const args = 'model_id, input, output, cache_create, cache_read, cache_1h, web_search, fast, cost_usd';
    const where = ofModels(models);
    this.db.exec(`UPDATE messages SET cost = cd_cost(${args}) ${where}; UPDATE alternates SET cost = cd_cost(${args}) ${where};`);
    this.db.exec(`DELETE FROM usage_hourly ${where}; DELETE FROM usage_hourly_model ${where};
      INSERT INTO usage_hourly SELECT CAST(ts / ${HOUR_MS} AS INTEGER), project_id, session_id, model_id, agent_id IS NOT NULL, count(*),
        sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cache_1h), sum(web_search), sum(cost), min(ts), max(ts)
        FROM messages ${where} GROUP BY 1, 2, 3, 4, 5;
      INSERT INTO usage_hourly_model SELECT hour, project_id, model_id, sub, sum(messages),
        sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cache_1h), sum(web_search), sum(cost), min(first_ts), max(last_ts)
        FROM usage_hourly ${where} GROUP BY 1, 2, 3, 4;
      DELETE FROM usage_hourly_all; DELETE FROM usage_total ${where};
      INSERT INTO usage_hourly_all SELECT hour, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost),
        min(first_ts), max(last_ts) FROM usage_hourly_model GROUP BY 1;
      INSERT INTO usage_total SELECT project_id, model_id, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read),
        sum(cache_1h), sum(web_search), sum(cost), min(first_ts), max(last_ts) FROM usage_hourly_model ${where} GROUP BY 1, 2;`);
    const zone = timeZone();
    if (models === null || this.metaValue('daily_tz') !== zone) this.rebuildDaily(zone);
    else this.rebuildLocal(models);
    for (const [id, name] of names) this.s.setPriced!.run(this.priced(name) ? 1 : 0, id);
  }
}
