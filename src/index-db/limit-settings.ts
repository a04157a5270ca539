// The plan limits' settings (the settings table of migration 006, beside the budgets):
//   limit-thresholds                  the used % that alert, comma-separated (default 75,90)
//   plan                              the plan and its monthly price, JSON {plan, monthlyPrice}
//   limit-alert:<window>:<kind>       the reset (epoch ms) of the window period whose alert was logged; kind is a
//                                     threshold (`75`) or `forecast` (100 % reached before the reset at this pace)
import type Database from 'better-sqlite3';
import type { PlanKind, PlanSetting } from '../shared/api-types.ts';
import type { SettingChange } from './settings.ts';

export const DEFAULT_THRESHOLDS: readonly number[] = [75, 90];
const THRESHOLDS_KEY = 'limit-thresholds';
const ALERT = /^limit-alert:([a-z0-9_]+):([a-z0-9]+)$/;

/** `75,90` -> [75, 90]: whole percents 1-100, sorted, each once; null when the text is not such a list. */
export function parseThresholds(text: string): number[] | null {
  const parts = text.split(',').map((s) => s.trim()).filter(Boolean);
  const nums = parts.map(Number);
  if (nums.some((n) => !Number.isInteger(n) || n < 1 || n > 100) || nums.length > 5) return null;
  return [...new Set(nums)].sort((a, b) => a - b);
}

export const PLAN_KINDS: readonly PlanKind[] = ['api', 'pro', 'max5', 'max20', 'team', 'enterprise'];
const PLAN_KEY = 'plan';
/** The most a plan's monthly price may be, in dollars. */
export const MAX_PLAN_PRICE = 100_000;

/** A stored plan, or null when the text is not one (written by hand). */
function planOf(text: string): PlanSetting | null {
  try {
    const o = JSON.parse(text) as { plan?: unknown; monthlyPrice?: unknown };
    const price = o.monthlyPrice;
    if (!PLAN_KINDS.includes(o.plan as PlanKind) || typeof price !== 'number' || !(price >= 0 && price <= MAX_PLAN_PRICE)) return null;
    return { plan: o.plan as PlanKind, monthlyPrice: price };
  } catch {
    return null;
  }
}

export interface LimitSettings {
  plan: PlanSetting | null;
  thresholds: number[];
  /** `<window>:<kind>` -> the reset (epoch ms) of the period whose alert was logged. */
  alerted: Map<string, number>;
}

export function limitSettingsReader(db: Database.Database): () => LimitSettings {
  const rows = db.prepare("SELECT key, value FROM settings WHERE key LIKE 'limit-%' OR key = 'plan'").raw(true);
  return () => {
    let thresholds = [...DEFAULT_THRESHOLDS];
    let plan: PlanSetting | null = null;
    const alerted = new Map<string, number>();
    for (const [key, value] of rows.all() as [string, string][]) {
      if (key === THRESHOLDS_KEY) thresholds = parseThresholds(value) ?? thresholds;
      if (key === PLAN_KEY) plan = planOf(value);
      const a = ALERT.exec(key);
      if (a && Number.isFinite(Number(value))) alerted.set(`${a[1]}:${a[2]}`, Number(value));
    }
    return { plan, thresholds, alerted };
  };
}

export const planChanges = (plan: PlanSetting | null): SettingChange[] => [[PLAN_KEY, plan === null ? null : JSON.stringify(plan)]];

export const thresholdChanges = (thresholds: readonly number[]): SettingChange[] => [[THRESHOLDS_KEY, thresholds.join(',')]];

/** Records that the alert of `kind` for the window period that resets at `resetsAt` was logged. */
export const limitAlertedChanges = (window: string, kind: string, resetsAt: number): SettingChange[] => [[`limit-alert:${window}:${kind}`, String(resetsAt)]];
