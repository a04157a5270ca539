// The writer's side of the plan limits: readings and hits into their tables (migration 011), and the statusline's
// side file taken in. Rows are inserted or ignored on their key, so the same reading or hit taken in twice (a side
// file read again after a crash, a hit in a resumed session's copy of a transcript) is one row. Each intake is one
// transaction with the side file's offset (meta `limits_intake`), which joins the writer's open one when there is.
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import type { LimitHit } from '../workers/protocol.ts';
import { goodReading, readingOfLine, skippedOfLine, type LimitReading } from './limit-readings.ts';

export interface LimitStore {
  /** Stores the good readings (goodReading); returns how many were new. */
  addReadings(readings: readonly LimitReading[]): number;
  addHits(hits: readonly LimitHit[] | undefined): void;
  /** Takes in the side file's lines past the last intake; returns the new readings and the bad lines skipped. */
  takeIn(sideFile: string): { added: number; skipped: number };
}

const OFFSET_KEY = 'limits_intake';
/** The bad readings skipped so far (the statusline's and the side file's), for /api/limits. */
export const SKIPPED_KEY = 'limits_skipped';

export function createLimitStore(db: Database.Database): LimitStore {
  const insertReading = db.prepare(`INSERT OR IGNORE INTO limit_readings (window, observed_at, source, machine, used_percent, resets_at, amount)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insertHit = db.prepare('INSERT OR IGNORE INTO limit_hits (key, at, window, resets_at, text) VALUES (?, ?, ?, ?, ?)');
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');

  const add = (readings: readonly LimitReading[]): number => {
    let added = 0;
    for (const r of readings) {
      if (goodReading(r)) added += insertReading.run(r.window, r.observedAt, r.source, r.machine, r.usedPercent, r.resetsAt, r.amount).changes;
    }
    return added;
  };
  const addReadings = db.transaction(add);
  const addHits = db.transaction((hits: readonly LimitHit[]) => {
    for (const h of hits) insertHit.run(h.key, h.at, h.window, h.resetsAt, h.text);
  });
  const intake = db.transaction((lines: string[], mark: string) => {
    const good: LimitReading[] = [];
    let skipped = 0;
    for (const line of lines) {
      if (!line) continue;
      const r = readingOfLine(line);
      if (r) good.push(r);
      else skipped += skippedOfLine(line);
    }
    setMeta.run(OFFSET_KEY, mark);
    if (skipped) setMeta.run(SKIPPED_KEY, String(Number(getMeta.get(SKIPPED_KEY) ?? 0) + skipped));
    return { added: add(good), skipped };
  });

  return {
    addReadings,
    addHits(hits) {
      if (hits?.length) addHits(hits);
    },
    takeIn(sideFile) {
      let fd: number;
      try {
        fd = fs.openSync(sideFile, 'r');
      } catch {
        return { added: 0, skipped: 0 };
      }
      try {
        const st = fs.fstatSync(fd);
        // `<inode>:<offset>`: another file under the name (removed and made again) is read from its start.
        const [ino, at] = String(getMeta.get(OFFSET_KEY) ?? '').split(':');
        const from = ino === String(st.ino) && Number(at) <= st.size ? Number(at) : 0;
        if (from >= st.size) return { added: 0, skipped: 0 };
        const buf = Buffer.alloc(st.size - from);
        fs.readSync(fd, buf, 0, buf.length, from);
        // Complete lines only: a line being appended now is taken at the next intake.
        const end = buf.lastIndexOf(0x0a) + 1;
        if (end === 0) return { added: 0, skipped: 0 };
        return intake(buf.subarray(0, end).toString('utf8').split('\n'), `${st.ino}:${from + end}`);
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}
