// The rows of one INSERT (or upsert) gathered and written by a few statements of many rows each instead of one
// statement a row: each statement's call, binding and reset has a fixed cost (bench/insert-floor.ts measures it), and a
// first index writes hundreds of thousands of messages and rollup cells per GiB.

import type Database from 'better-sqlite3';

/** Rows per statement, largest first: n gathered rows take at most one statement of each size (n's binary digits). */
const SIZES = [64, 32, 16, 8, 4, 2, 1];

export class ManyRows {
  private readonly statements = new Map<number, Database.Statement>();
  /** The gathered rows' values, `width` a row, in the order of the statement's columns: push a row's values here. */
  readonly values: unknown[] = [];

  /**
   * `head`: the statement up to its VALUES (`INSERT INTO t (a, b) VALUES`); `width`: the values of a row; `tail`: what
   * follows the rows (an ON CONFLICT clause).
   */
  constructor(
    private readonly db: Database.Database,
    private readonly head: string,
    private readonly width: number,
    private readonly tail = '',
  ) {}

  /** The rows gathered and not written yet. */
  get rows(): number {
    return this.values.length / this.width;
  }

  /**
   * Writes the gathered rows, in their order. They are gone afterwards even when a statement fails: its transaction
   * rolls back, and rows left here would go into the next one.
   */
  flush(): void {
    const width = this.width;
    let at = 0;
    let left = this.rows;
    try {
      for (const size of SIZES) {
        for (; left >= size; left -= size, at += size * width) this.statement(size).run(this.values.slice(at, at + size * width));
      }
    } finally {
      this.values.length = 0;
    }
  }

  /** Drops the gathered rows (their transaction failed). */
  clear(): void {
    this.values.length = 0;
  }

  private statement(rows: number): Database.Statement {
    let st = this.statements.get(rows);
    if (!st) {
      const tuple = `(${Array(this.width).fill('?').join(',')})`;
      st = this.db.prepare(`${this.head} ${Array(rows).fill(tuple).join(',')} ${this.tail}`);
      this.statements.set(rows, st);
    }
    return st;
  }
}
