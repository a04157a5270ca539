// The new message rows of a batch, written at its end by a few INSERTs of many rows each instead of one statement a
// row. Storing 1 GiB's 197k rows again (bench/insert-floor.ts) takes 620 ms a row per INSERT, 470 ms 100 rows per
// INSERT: each statement's call, binding and reset. In the writer, where the rows are built one by one, the gain is
// smaller: the writer alone 1.25 against 1.21 s of CPU, a cold index's main thread 1.72 against 1.68 s (1 GiB, medians
// of six interleaved runs). A buffered row gets the id SQLite would have given it there (one more than the largest),
// so the key index points at it at once.
import type Database from 'better-sqlite3';

/** Rows per statement, largest first: n buffered rows take at most one statement of each size (n's binary digits). */
const SIZES = [64, 32, 16, 8, 4, 2, 1];

export class MessageInserts<Row> {
  private readonly statements = new Map<number, Database.Statement>();
  private readonly largestId: Database.Statement;
  /** Values a row: its id and its columns. */
  private readonly width: number;
  /** id and columns of each buffered row, one after the other. */
  private values: unknown[] = [];
  private count = 0;
  /** The id of the next row added. */
  private next = 0;

  /** `columns`: the message columns but `id`; `write` appends a row's values in their order. */
  constructor(
    private readonly db: Database.Database,
    private readonly columns: string,
    private readonly write: (row: Row, out: unknown[]) => void,
  ) {
    this.largestId = db.prepare('SELECT coalesce(max(id), 0) FROM messages').pluck();
    this.width = columns.split(',').length + 1;
  }

  /** Starts buffering in the current transaction; what a failed batch left (its rows rolled back with it) is dropped. */
  begin(): void {
    this.values = [];
    this.count = 0;
    this.next = Number(this.largestId.get()) + 1;
  }

  /** Buffers a row; returns its id. */
  add(row: Row): number {
    const id = this.next++;
    this.values.push(id);
    this.write(row, this.values);
    this.count++;
    return id;
  }

  /** Whether the row of `id` is buffered, not written yet (reading it needs a flush first). */
  holds(id: number): boolean {
    return id >= this.next - this.count && id < this.next;
  }

  /** Writes the buffered rows. */
  flush(): void {
    const width = this.width;
    let at = 0;
    let left = this.count;
    for (const size of SIZES) {
      for (; left >= size; left -= size, at += size * width) this.statement(size).run(this.values.slice(at, at + size * width));
    }
    this.values = [];
    this.count = 0;
  }

  private statement(rows: number): Database.Statement {
    let st = this.statements.get(rows);
    if (!st) {
      const tuple = `(${Array(this.width).fill('?').join(',')})`;
      st = this.db.prepare(`INSERT INTO messages (id, ${this.columns}) VALUES ${Array(rows).fill(tuple).join(',')}`);
      this.statements.set(rows, st);
    }
    return st;
  }
}
