// The new message rows of a batch, written at its end (many-rows.ts) instead of one INSERT a row. In the writer, where
// the rows are built one by one, the gain is smaller than the statements' own cost, but measurable (bench/RESULTS.md). A buffered
// row gets the id SQLite would have given it there (one more than the largest), so the key index points at it at once.
// A row can be written in one of several shapes (column lists): one that leaves out columns the row holds at their
// default binds fewer values, and binding is most of an insert's cost here (bench/RESULTS.md "Issue 32").
import type Database from 'better-sqlite3';
import { ManyRows } from './many-rows.ts';

/** A column list rows can be written in. */
export interface RowShape<Row> {
  /** The message columns but `id`. */
  columns: string;
  /** Appends a row's values in the order of `columns`. */
  write: (row: Row, out: unknown[]) => void;
  /** Whether a row can be written in this shape (absent: every row can). */
  fits?: (row: Row) => boolean;
}

export class MessageInserts<Row> {
  private readonly largestId: Database.Statement;
  private readonly shapes: { shape: RowShape<Row>; rows: ManyRows }[];
  /** The id of the first row buffered and not written yet (== next when none is). */
  private first = 0;
  /** The id of the next row added. */
  private next = 0;

  /** `shapes`: a row goes in the first that fits it; the last should fit every row. */
  constructor(db: Database.Database, shapes: readonly RowShape<Row>[]) {
    this.largestId = db.prepare('SELECT coalesce(max(id), 0) FROM messages').pluck();
    this.shapes = shapes.map((shape) => ({
      shape,
      rows: new ManyRows(db, `INSERT INTO messages (id, ${shape.columns}) VALUES`, shape.columns.split(',').length + 1),
    }));
  }

  /** Starts buffering in the current transaction; what a failed batch left (its rows rolled back with it) is dropped. */
  begin(): void {
    this.clear();
    this.next = Number(this.largestId.get()) + 1;
    this.first = this.next;
  }

  /**
   * Runs `place` with its new rows buffered (begin), then writes them. When it throws, they are dropped: its transaction
   * rolls back, and rows left here would be written by a later flush (a colliding hash in the writer's careful retry).
   */
  gather(place: () => void): void {
    this.begin();
    try {
      place();
      this.flush();
    } finally {
      this.clear();
    }
  }

  /** Buffers a row; returns its id. */
  add(row: Row): number {
    const id = this.next++;
    let at = 0;
    while (at < this.shapes.length - 1 && !(this.shapes[at]!.shape.fits?.(row) ?? true)) at++;
    const { shape, rows } = this.shapes[at]!;
    rows.values.push(id);
    shape.write(row, rows.values);
    return id;
  }

  /** Whether the row of `id` is buffered, not written yet (reading it needs a flush first). */
  holds(id: number): boolean {
    return id >= this.first && id < this.next;
  }

  /** Writes the buffered rows; they are gone afterwards even when a statement fails (ManyRows.flush). */
  flush(): void {
    try {
      for (const { rows } of this.shapes) rows.flush();
    } finally {
      this.clear();
    }
  }

  private clear(): void {
    for (const { rows } of this.shapes) rows.clear();
    this.first = this.next;
  }
}
