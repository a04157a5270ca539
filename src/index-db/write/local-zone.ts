// The local rollups' time zone: the local days and hours they hold are those of the zone in meta `daily_tz`, rebuilt
// from the messages themselves (each counts on the local day and hour of its own timestamp) when the process's zone
// is another one.
import type Database from 'better-sqlite3';
import { ianaZone } from '../../calendar/zone.ts';
import { TOKEN_KINDS } from '../schema/measures.ts';
import { rebuildSql, type KeyExprs } from '../schema/rollup-sql.ts';
import { ROLLUPS, type Rollup } from '../schema/rollups.ts';
import { LocalClock, timeZone } from '../time.ts';
import type { GroupCommit } from './group-commit.ts';
import type { MetaWrites } from './meta.ts';
import type { UndoLog } from '../undo-log.ts';

const LOCAL = Object.values(ROLLUPS).filter((r: Rollup) => r.grain === 'local-hour' || r.grain === 'local-day');
/** The local keys of a row of `temp.local_msgs`. */
const LOCAL_KEYS: KeyExprs = { lhour: 'lhour', day: 'lhour / 24', sub: 'agent_id IS NOT NULL' };
const LOCAL_MSG_COLS = ['ts', 'project_id', 'session_id', 'model_id', 'agent_id', ...TOKEN_KINDS.map((k) => k.column), 'cost', 'tools'];

export class LocalZone {
  /** process.env.TZ when the daily rollup was last found matching (null: not checked yet). */
  private tzEnv: string | undefined | null = null;
  /** The zone the local rollups are in, as of that check. */
  zone = '';
  /** process.env.TZ when foldZone() last resolved the zone (null: not yet), and what it answered. */
  private foldEnv: string | undefined | null = null;
  private foldZoneName: string | null = null;
  /** Local hours of instants, in the zone the local rollups were built in. */
  private readonly clock = new LocalClock();
  readonly lhourOf = (ms: number): number => this.clock.lhour(ms);

  constructor(
    private readonly db: Database.Database,
    private readonly meta: MetaWrites,
    private readonly undo: UndoLog,
  ) {
    db.function('cd_lhour', { deterministic: true }, ((ms: number) => this.clock.lhour(ms)) as (...args: unknown[]) => number);
  }

  /** Rebuilds the local rollups when the process time zone is not the one they were built in. */
  sync(commit: GroupCommit): void {
    // Resolving the zone costs ~0.1 ms; it can only change with process.env.TZ.
    const env = process.env.TZ;
    if (env === this.tzEnv) return;
    const zone = timeZone();
    this.zone = zone;
    if (this.meta.value('daily_tz') !== zone) {
      commit.write(() => {
        this.db.transaction(() => this.rebuildAll(zone))();
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

  /** Whether the local rollups hold the process's zone (as of the last sync): a reprice adds to them in it. */
  current(): boolean {
    return this.meta.value('daily_tz') === this.zone;
  }

  /** The local rollups from the messages themselves: each counts on the local day and hour of its own timestamp. */
  private rebuildAll(zone: string): void {
    this.clock.clear();
    this.db.exec(`DROP TABLE IF EXISTS temp.local_msgs;
      CREATE TEMP TABLE local_msgs AS SELECT CAST(cd_lhour(ts) AS INTEGER) AS lhour, ${LOCAL_MSG_COLS.join(', ')} FROM messages;
      ${rebuildSql(LOCAL, 'local_msgs', LOCAL_KEYS, '')}
      DROP TABLE temp.local_msgs;`);
    this.meta.set('daily_tz', zone);
  }
}
