// GET /api/retention's figures (issue 34): per config dir, Claude Code's cleanup period (its settings.json), what only
// the index still holds, and the transcripts its next start deletes (modification time older than the period) or that
// become due within a week, by the modification times the index last saw on disk (the watcher and the 30 s re-check
// keep them: a stat of every transcript per /metrics scrape cost more than the rest of it); plus the kept folder and the
// last backup.
import path from 'node:path';
import { DAY_MS } from '../calendar/days.ts';
import { systemZone } from '../calendar/zone.ts';
import { readBackupNote } from '../index-db/backup.ts';
import type { IndexDb, IndexReader } from '../index-db/types.ts';
import { KEEP_SETTING, type DirFiles, type LiveRow } from '../index-db/queries/retention.ts';
import { keptStats } from '../ingest/keep-transcripts.ts';
import type { KeepChange, RetentionService } from '../http/retention-service.ts';
import type { Keeping } from './keeping.ts';
import type { DueCounts, Retention, RetentionDir } from '../shared/retention-types.ts';
import { readCleanupPeriod } from './cleanup-period.ts';
import { withFreeWriter } from './free-writer.ts';

export interface RetentionOptions {
  index: Pick<IndexReader, 'queries' | 'generation'> & { writable(): Pick<IndexDb, 'writeSettings' | 'writesHeld'> | null };
  indexPath: string;
  dirs: readonly string[];
  /** Each dir's --dir label; null: this machine. */
  dirMachines: readonly (string | null)[];
  machine: string;
  keeping: Keeping;
  /** Where the dashboard's offer keeps the transcripts: beside the index, as --keep-transcripts alone does. */
  offerDir: string;
  log: (message: string) => void;
}

/** How far ahead "due soon" looks. */
const SOON_DAYS = 7;

class Due {
  files = 0;
  bytes = 0;
  cost = 0;
  oldest = Infinity;
  sessions = new Set<number>();

  add([session, size, mtimeMs, cost]: LiveRow): void {
    this.files++;
    this.bytes += size;
    this.cost += cost;
    this.oldest = Math.min(this.oldest, mtimeMs);
    if (session !== null) this.sessions.add(session);
  }

  counts(): DueCounts {
    const { files, bytes, cost, oldest } = this;
    return { files, sessions: this.sessions.size, bytes, cost, oldest: oldest === Infinity ? null : new Date(oldest).toISOString() };
  }
}

/** What the index says of one projects folder, as of one generation of the index (and one zone). */
interface IndexSide extends DirFiles {
  generation: number;
  zone: string | undefined;
}

export function createRetentionService(opts: RetentionOptions): RetentionService {
  // A bad settings file is said once per distinct line, not on every request.
  const said = new Set<string>();
  // Read again only once the index moved: a scrape of an index that did not change reads no message.
  const sides = new Map<string, IndexSide>();

  function indexSide(projects: string): IndexSide {
    const q = opts.index.queries.retention;
    const generation = opts.index.generation();
    const zone = process.env.TZ;
    let side = sides.get(projects);
    if (!side || side.generation !== generation || side.zone !== zone) {
      side = { generation, zone, ...q.dirFiles(projects, systemZone) };
      sides.set(projects, side);
    }
    return side;
  }

  function dirReport(dir: string, machine: string, now: number): RetentionDir {
    const period = readCleanupPeriod(dir);
    if (period.error && !said.has(period.error)) {
      said.add(period.error);
      opts.log(period.error);
    }
    const side = indexSide(path.join(dir, 'projects'));
    const due = new Due();
    const soon = new Due();
    const cutoff = now - period.days * DAY_MS;
    const soonCutoff = cutoff + SOON_DAYS * DAY_MS;
    for (const file of side.live) {
      const mtimeMs = file[2];
      if (mtimeMs >= soonCutoff) continue;
      (mtimeMs < cutoff ? due : soon).add(file);
    }
    return {
      dir,
      machine,
      cleanupPeriodDays: period.days,
      settingsError: period.error,
      onlyInIndex: side.onlyInIndex,
      dueForCleanup: due.counts(),
      dueWithin7Days: soon.counts(),
    };
  }

  const dirs = (now: number): RetentionDir[] => opts.dirs.map((d, i) => dirReport(d, opts.dirMachines[i] ?? opts.machine, now));
  const report = (now: number): Retention => {
    const kept = opts.keeping.dir();
    return {
      dirs: dirs(now),
      kept: kept === null ? null : { dir: kept, ...keptStats(kept) },
      backup: readBackupNote(opts.indexPath),
    };
  };

  return {
    report,
    dirs,
    async keep(now) {
      if (opts.keeping.dir() !== null) return { ok: true, retention: report(now) };
      return withFreeWriter(() => opts.index.writable(), (writer): KeepChange => {
        if (!writer) return { ok: false, reason: 'read-only', message: 'This server reads an index another process writes: turn keeping on there, or start with --keep-transcripts' };
        try {
          // Recorded in the index, so the next start keeps them too.
          writer.writeSettings([[KEEP_SETTING, opts.offerDir]]);
        } catch (err) {
          return { ok: false, reason: 'write-failed', message: `Cannot record the setting in the index: ${(err as Error).message}` };
        }
        const q = opts.index.queries.retention;
        const files = opts.dirs.flatMap((d) => q.liveFiles(path.join(d, 'projects')).map((f) => f.path));
        void opts.keeping.turnOn(opts.offerDir, files);
        return { ok: true, retention: report(now) };
      });
    },
  };
}
