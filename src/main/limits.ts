// The server's part in the plan limits (issue 33). As the index's writer it takes in the statusline's side file every
// few seconds, keeps each probe answer's windows, polls the probe when --poll-limits asks, and logs each alert (a
// threshold reached, 100 % forecast before the reset) once per window period: the period is recorded in the index's
// settings, so a restart does not log it again.
import { IndexWriteError } from '../index-db/errors.ts';
import { limitAlertedChanges, planChanges, thresholdChanges } from '../index-db/limit-settings.ts';
import type { SettingChange } from '../index-db/settings.ts';
import type { LimitSettingsResult, LimitSettingsService } from '../http/limit-settings-service.ts';
import { limitsSideFile, type LimitReading } from '../index-db/limit-readings.ts';
import type { IndexDb, Queries } from '../index-db/types.ts';
import type { LimitAlert, UsageLimits } from '../shared/api-types.ts';
import type { UsageProbe } from '../usage-probe/probe.ts';
import type { Log } from '../ingest/log.ts';
import { withFreeWriter } from './free-writer.ts';

export interface LimitsIndex {
  readonly queries: Queries;
  writable(): Pick<IndexDb, 'writeSettings' | 'addLimitReadings' | 'takeInLimitReadings' | 'writesHeld'> | null;
  /** The process that writes the index while this one reads it, as that process recorded itself. */
  otherWriter(): string;
}

export interface LimitsOptions {
  index: LimitsIndex;
  indexPath: string;
  machine: string;
  /** Minutes between probes (--poll-limits); null: only when the dashboard asks. */
  pollMinutes: number | null;
  log: Log;
  now?: () => number;
}

export interface LimitsService extends LimitSettingsService {
  /** The probe, its answers kept as readings. */
  recording(probe: UsageProbe): UsageProbe;
  /** Takes in the side file and logs new alerts (the writer only). */
  check(): void;
  start(probe: UsageProbe): void;
  close(): void;
}

/** How often the side file is looked at: a statusline reading reaches the dashboard within this. */
const INTAKE_MS = 5000;

const MODEL_WINDOW = /^model:(.+)$/;

/** A probe answer's windows as readings: `model:<name>` is `seven_day_<name>`, the usage credits `extra_usage`. */
export function probeReadings(u: UsageLimits, machine: string): LimitReading[] {
  const observedAt = Date.parse(u.fetchedAt);
  const out: LimitReading[] = u.windows.map((w) => {
    const model = MODEL_WINDOW.exec(w.id)?.[1];
    const window = model ? `seven_day_${model.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '')}` : w.id;
    return { window, usedPercent: w.percent, resetsAt: w.resetsAt === null ? null : Date.parse(w.resetsAt), observedAt, source: 'probe', machine, amount: null };
  });
  if (u.spend) out.push({ window: 'extra_usage', usedPercent: u.spend.percent ?? 0, resetsAt: null, observedAt, source: 'probe', machine, amount: u.spend.used });
  return out;
}

/** The server's one line for an alert. */
export function limitAlertLine(a: LimitAlert): string {
  const resets = `resets ${a.resetsAt}`;
  if (a.kind === 'forecast') {
    return `limit alert: the ${a.window} window is at ${a.usedPercent.toFixed(0)}% and reaches 100% at ${a.fullAt} at this pace (${resets})`;
  }
  return `limit alert: the ${a.window} window reached ${a.kind}% (${a.usedPercent.toFixed(0)}% used, ${resets})`;
}

export function createLimitsService(opts: LimitsOptions): LimitsService {
  const { index, log } = opts;
  const now = opts.now ?? Date.now;
  const sideFile = limitsSideFile(opts.indexPath);
  /** Alerts logged by this process, so a failed record (a full disk) does not log the same alert every check. */
  const logged = new Set<string>();
  const timers: NodeJS.Timeout[] = [];
  /** New readings since the alerts were last looked at (alerts move only with readings). */
  let fresh = true;

  const keep = async (u: UsageLimits): Promise<void> => {
    if (!u.limitsApply) return;
    await withFreeWriter(() => index.writable(), (writer) => {
      if (!writer) return;
      try {
        if (writer.addLimitReadings(probeReadings(u, opts.machine)) > 0) fresh = true;
        check();
      } catch (err) {
        if (!(err instanceof IndexWriteError)) throw err;
      }
    });
  };

  const check = (): void => {
    const writer = index.writable();
    // While a compaction holds the writes, the side file waits for the next intake (taking it in is a write).
    if (!writer || writer.writesHeld()) return;
    const taken = writer.takeInLimitReadings(sideFile);
    if (taken.skipped) log(`plan limits: skipped ${taken.skipped} bad reading${taken.skipped === 1 ? '' : 's'}`);
    if (taken.added > 0) fresh = true;
    if (!fresh) return;
    fresh = false;
    for (const a of index.queries.limits(now()).alerts) {
      const resetsAt = Date.parse(a.resetsAt);
      const key = `${a.window}:${a.kind}:${resetsAt}`;
      if (a.logged || logged.has(key)) continue;
      logged.add(key);
      log(limitAlertLine(a));
      try {
        writer.writeSettings(limitAlertedChanges(a.window, a.kind, resetsAt));
      } catch (err) {
        if (!(err instanceof IndexWriteError)) throw err; // logged by the writer; this process still remembers it
      }
    }
  };
  // A failed check (the index being rebuilt, a damaged file) must not end the server: the next one tries again.
  const checkQuietly = (): void => {
    try {
      check();
    } catch (err) {
      log(`plan limits check failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return {
    change: (change, at) => withFreeWriter(() => index.writable(), (writer): LimitSettingsResult => {
      if (!writer) {
        return { ok: false, reason: 'read-only', message: `Settings cannot be changed here: this server reads an index that another process writes (${index.otherWriter()}).` };
      }
      const changes: SettingChange[] = [];
      if (change.thresholds) changes.push(...thresholdChanges(change.thresholds));
      if (change.plan !== undefined) changes.push(...planChanges(change.plan));
      try {
        writer.writeSettings(changes);
      } catch (err) {
        if (!(err instanceof IndexWriteError)) throw err;
        return { ok: false, reason: 'write-failed', message: `The settings were not saved: ${err.message}` };
      }
      // New thresholds may alert at once.
      fresh = true;
      checkQuietly();
      return { ok: true, limits: index.queries.limits(at) };
    }),
    recording: (probe) => ({
      ...probe,
      get: (refresh) => probe.get(refresh).then(async (u) => {
        if (!u.cached) await keep(u);
        return u;
      }),
    }),
    check,
    start(probe) {
      checkQuietly();
      timers.push(setInterval(checkQuietly, INTAKE_MS));
      if (opts.pollMinutes !== null) {
        const poll = (): void => {
          probe.get(true).catch((err: unknown) => log(`plan limits poll: ${err instanceof Error ? err.message : String(err)}`));
        };
        poll();
        timers.push(setInterval(poll, opts.pollMinutes * 60_000));
      }
      for (const t of timers) t.unref();
    },
    close() {
      for (const t of timers) clearInterval(t);
      timers.length = 0;
    },
  };
}
