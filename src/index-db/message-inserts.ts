// The new message rows of a batch, written at its end (many-rows.ts) instead of one INSERT a row. In the writer, where
// the rows are built one by one, the gain is smaller than the statements' own cost, but measurable (bench/RESULTS.md). A buffered
// row gets the id SQLite would have given it there (one more than the largest), so the key index points at it at once.
import type Database from 'better-sqlite3';
import { ManyRows } from './many-rows.ts';

export class MessageInserts<Row> {
  private readonly largestId: Database.Statement;
  private readonly rows: ManyRows;
  /** The id of the next row added. */
  private next = 0;

  /** `columns`: the message columns but `id`; `write` appends a row's values in their order. */
  constructor(
    db: Database.Database,
    columns: string,
    private readonly write: (row: Row, out: unknown[]) => void,
  ) {
    this.largestId = db.prepare('SELECT coalesce(max(id), 0) FROM messages').pluck();
    this.rows = new ManyRows(db, `INSERT INTO messages (id, ${columns}) VALUES`, columns.split(',').length + 1);
  }

  /** Starts buffering in the current transaction; what a failed batch left (its rows rolled back with it) is dropped. */
  begin(): void {
    this.rows.clear();
    this.next = Number(this.largestId.get()) + 1;
  }

  /**
   * Runs `place` with its new rows buffered (begin), then writes them. When it throws, they are dropped: its transaction
   * rolls back, and rows left here would be written by a later flush (a colliding hash in the writer's careful retry).
   */
  gather(place: () => void): void {
    this.begin();
    try {
      place();
      this.rows.flush();
    } finally {
      this.rows.clear();
    }
  }

  /** Buffers a row; returns its id. */
  add(row: Row): number {
    const id = this.next++;
    this.rows.values.push(id);
    this.write(row, this.rows.values);
    return id;
  }

  /** Whether the row of `id` is buffered, not written yet (reading it needs a flush first). */
  holds(id: number): boolean {
    return id >= this.next - this.rows.rows && id < this.next;
  }

  /** Writes the buffered rows. */
  flush(): void {
    this.rows.flush();
  }
}
