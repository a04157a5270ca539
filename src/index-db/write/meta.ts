// The index's meta keys (what the stored costs and local rollups were made with) and this machine's settings, as the
// writer writes them.
import type Database from 'better-sqlite3';
import type { SettingChange } from '../settings.ts';

export class MetaWrites {
  private readonly get: Database.Statement;
  private readonly put: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly setSetting: Database.Statement;
  private readonly deleteSetting: Database.Statement;

  constructor(db: Database.Database) {
    this.get = db.prepare('SELECT value FROM meta WHERE key = ?');
    this.put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.remove = db.prepare('DELETE FROM meta WHERE key = ?');
    this.setSetting = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.deleteSetting = db.prepare('DELETE FROM settings WHERE key = ?');
  }

  /** A value of the meta table (undefined: none). */
  value(key: string): string | undefined {
    return (this.get.get(key) as { value: string } | undefined)?.value;
  }

  set(key: string, value: string): void {
    this.put.run(key, value);
  }

  delete(key: string): void {
    this.remove.run(key);
  }

  /** Writes settings (a null value deletes its key); the caller makes it one durable write. */
  applySettings(changes: readonly SettingChange[]): void {
    for (const [key, value] of changes) {
      if (value === null) this.deleteSetting.run(key);
      else this.setSetting.run(key, value);
    }
  }
}
