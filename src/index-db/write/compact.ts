// The index written again whole (VACUUM) once a writer has more than doubled it, when the command's catch-up that did
// so ends (not in the server, whose requests would wait on it meanwhile). A first index reads the transcripts newest first (ingest/scan-order.ts), so the rollups' keys and
// `messages_file_ts` entries arrive out of order and their B-tree pages end about half full: at 10 GiB of
// transcripts a VACUUM took the file from 357 to 331 MB. Later writes append in time order and fill pages well, so
// this is due again only when the history has doubled once more. VACUUM keeps every INTEGER PRIMARY KEY (all the
// rowid tables have one), so the message ids, and with them the key dump beside the file, stay true.
import type Database from 'better-sqlite3';
import type { GroupCommit } from './group-commit.ts';

/** Below this many new messages the pages left half full are a few MB at most: not worth writing the file again. */
export const COMPACT_MIN_MESSAGES = 50_000;

const MAX_ID = 'SELECT coalesce(max(id), 0) FROM messages';

export class Compaction {
  /** The largest message id when this writer opened the file, or when it last compacted it. */
  private base: number;

  constructor(
    private readonly db: Database.Database,
    private readonly commits: GroupCommit,
    private readonly log: (msg: string) => void,
    private readonly minMessages = COMPACT_MIN_MESSAGES,
  ) {
    this.base = this.maxId();
  }

  /**
   * Commits and compacts the file when this writer has added at least `minMessages` messages and as many as
   * it held before; true when it did. The writer is held meanwhile (seconds at 10 GiB); readers of other connections
   * keep reading the last commit (WAL). A failure (a full disk: VACUUM needs room for a copy of the file) is logged
   * and leaves the file as it was.
   */
  runIfDue(): boolean {
    if (this.db.memory) return false;
    const added = this.maxId() - this.base;
    if (added < this.minMessages || added < this.base) return false;
    if (!this.commits.commit()) return false;
    // The copy VACUUM builds goes to a temp file, not to memory (temp_store = MEMORY otherwise): in memory it raised
    // the process's peak by the size of the file.
    this.db.pragma('temp_store = FILE');
    try {
      this.db.exec('VACUUM');
    } catch (err) {
      this.log(`the index was not compacted (${(err as Error).message}); it is whole as it was`);
      return false;
    } finally {
      this.db.pragma('temp_store = MEMORY');
    }
    // Not due again before the history doubles once more.
    this.base += added;
    // In WAL mode the new pages went through the WAL, as big as the file: copy them back and empty it now, not at the
    // next checkpoint that finds no reader (the WAL would stay that big on disk until then). A reader that holds
    // it past the busy timeout only leaves that to a later checkpoint.
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (err) {
      this.log(`the index's WAL was not emptied after its compaction (${(err as Error).message}); a later checkpoint does it`);
    }
    return true;
  }

  private maxId(): number {
    return this.db.prepare(MAX_ID).pluck().get() as number;
  }
}
