// What the plan limit settings route needs (src/main/limits.ts implements it), so http does not import main.
import type { LimitsData, LimitSettingsChange } from '../shared/api-types.ts';

/** The limits after a change, or why nothing changed. */
export type LimitSettingsResult =
  | { ok: true; limits: LimitsData }
  | { ok: false; reason: 'read-only' | 'write-failed'; message: string };

export interface LimitSettingsService {
  /** Waits (asynchronously) while a compaction of the index holds its writes (index-db/write/compact.ts). */
  change(change: LimitSettingsChange, now: number): Promise<LimitSettingsResult>;
}
