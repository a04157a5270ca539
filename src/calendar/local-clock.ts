// Local hour numbers of instants in one zone, cached per UTC hour: the writer folds every message into its local
// hour and day, and so do the parse workers for the writer's zone, so the lookup must be cheap and exact.
import { HOUR_MS } from './days.ts';
import { localHourOf, systemZone, type Zone } from './zone.ts';

/**
 * Local hour numbers (local day number x 24 + local hour) of instants, cached per UTC hour. In a
 * :30 or :45 zone (or at a DST change off the hour) the local hour, and so maybe the local day,
 * changes inside a UTC hour: the cache keeps where, so every instant gets its own exact local hour.
 */
export class LocalClock {
  private hours = new Map<number, { split: number; before: number; after: number }>();

  /** `zone` defaults to the process's (Date's local methods). */
  constructor(private readonly zone: Zone = systemZone) {}

  /** Local hour number of an instant. */
  lhour(ms: number): number {
    const h = Math.floor(ms / HOUR_MS);
    let c = this.hours.get(h);
    if (!c) this.hours.set(h, (c = this.splitHour(h)));
    return ms < c.split ? c.before : c.after;
  }

  /** Local day number of an instant. */
  day(ms: number): number {
    return Math.floor(this.lhour(ms) / 24);
  }

  /** Forget the cache (the zone changed). */
  clear(): void {
    this.hours.clear();
  }

  /** The local hours of a UTC hour: one, or two with the first instant of the second (found by bisection). */
  private splitHour(h: number): { split: number; before: number; after: number } {
    const lhourOf = (ms: number): number => localHourOf(this.zone, ms);
    const start = h * HOUR_MS;
    const before = lhourOf(start);
    const after = lhourOf(start + HOUR_MS - 1);
    if (before === after) return { split: Infinity, before, after };
    let lo = start; // lhourOf(lo) === before
    let hi = start + HOUR_MS - 1; // lhourOf(hi) === after
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (lhourOf(mid) === before) lo = mid;
      else hi = mid;
    }
    return { split: hi, before, after };
  }
}
