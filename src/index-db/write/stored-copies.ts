// The dedup rules (decisions.md): key = message.id + requestId (global), else message.id within the session, else
// file + offset. The winning copy has the most output tokens; on a tie the earliest file (first timestamp, then path,
// then offset). Losing copies from other files are kept as alternates, and promoted when the winner's file is reset.
import { nextHkey } from '../../workers/protocol.ts';
import type { FileInfo, IdMaps } from '../id-maps.ts';
import type { KeyIndex } from '../key-index.ts';
import type { MessageInserts } from '../message-inserts.ts';
import type { Msg, RollupDelta } from '../rollup.ts';
import type { StoredKeys } from '../stored-keys.ts';
import type { UndoLog } from '../undo-log.ts';
import { params, type MessageStatements, type StoredMsg } from './statements.ts';

/** What placing a message did: stored it as a new key, replaced the stored copy (returned), or kept the stored one. */
export type Placed = 'new' | 'kept' | StoredMsg;

export class StoredCopies {
  constructor(
    private readonly ids: IdMaps,
    private readonly undo: UndoLog,
    private readonly keys: StoredKeys,
    /** A batch's new rows, placed by the batch, wait here for one write at its end. */
    readonly inserts: MessageInserts<Msg>,
    private readonly s: MessageStatements,
  ) {}

  /**
   * Inserts a message (`gathered`: into the batch's rows written at its end, message-inserts.ts), or settles it against
   * the stored copy of its key; the caller moves the rollups.
   */
  place(m: Msg, file: FileInfo, gathered = false): Placed {
    let keys = this.keyIds();
    let old: StoredMsg | undefined;
    for (;;) {
      const id = keys.get(m.hkey);
      if (id === undefined) {
        this.setKey(m.hkey, gathered ? this.inserts.add(m) : Number(this.s.insert.run(...params(m)).lastInsertRowid));
        return 'new';
      }
      // A batch's winners have distinct keys, so only another key of the same hash finds a row still buffered.
      if (this.inserts.holds(id)) this.inserts.flush();
      old = this.s.byId(id);
      if (!old) {
        // A key with no message: the key index cannot be trusted for any key (stored-keys.ts distrust).
        this.inserts.flush();
        keys = this.keys.distrust();
        this.undo.push(() => this.keys.forget());
        continue;
      }
      if (old.key === m.key) break;
      m.hkey = nextHkey(m.hkey); // another key owns this hash: probe the next one
    }
    if (old.file === m.file && old.off === m.off) return 'kept'; // the same line again
    if (this.beats(m, file, old)) {
      if (old.file !== m.file) this.s.demote.run(old.id);
      this.s.replace.run(...params(m), old.id);
      return old;
    }
    if (old.file !== m.file) this.s.insertAlt.run(...params(m));
    return 'kept';
  }

  /** Takes a file's copies out: each winner of them gives way to its best alternate, if any; `delta` follows. */
  removeFile(f: FileInfo, delta: RollupDelta): void {
    const gone = this.s.fileMsgs(f.id);
    this.s.deleteFileMsgs.run(f.id);
    this.s.deleteFileAlts.run(f.id);
    for (const m of gone) {
      delta.add(m, -1);
      this.setKey(m.hkey, undefined);
      const alt = this.s.bestAlt(m.hkey, m.key);
      if (!alt) continue;
      this.setKey(m.hkey, Number(this.s.promote.run(alt.id).lastInsertRowid));
      this.s.deleteAlt.run(alt.id);
      delta.add(alt, 1);
    }
  }

  /**
   * Reads up to `rows` more stored keys into the key index, in id order; true once it holds every stored winner. The
   * pipeline calls it in slices after the start-up scan, so that the first write after a restart does not stall on
   * reading them all. Nothing writes a message before the index is complete (keyIds() reads the rest first), so the
   * slices see the file as it was.
   */
  preloadKeys(rows: number): boolean {
    return this.keys.readAhead(rows);
  }

  /** After the last commit: closes the read-ahead's connection, and saves the key index beside the file when due. */
  close(dump = true): void {
    this.keys.close(dump);
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

  /** hkey -> message id of every stored winner, read from the file once, then kept in step by the writer. */
  private keyIds(): KeyIndex {
    return this.keys.all();
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
}
