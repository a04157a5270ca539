// What the writer's memory (name -> id maps, the key index, file facts) gained since the last commit,
// as undo steps. SQLite rolls back a failed savepoint, or a whole transaction when a commit fails or
// an I/O error aborts it; the writer then rolls this log back to the same point, so memory only ever
// holds what the file holds and no id of a rolled-back row is handed out again for another row.

export class UndoLog {
  private steps: (() => void)[] = [];

  /** A point to roll back to. */
  mark(): number {
    return this.steps.length;
  }

  push(step: () => void): void {
    this.steps.push(step);
  }

  /** Undoes every step after `mark`, newest first. */
  rollbackTo(mark: number): void {
    for (let i = this.steps.length - 1; i >= mark; i--) this.steps[i]!();
    this.steps.length = mark;
  }

  /** The writes are durable: nothing to undo any more. */
  clear(): void {
    this.steps = [];
  }
}
