// What POST /api/limits/settings may carry: {thresholds?: [1-100, at most 5], plan?: {plan, monthlyPrice} | null};
// anything else is a 400 with its reason, and nothing changes.
import type { LimitSettingsChange, PlanKind, PlanSetting } from '../shared/api-types.ts';
import { HttpError } from './errors.ts';

const PLANS: readonly PlanKind[] = ['api', 'pro', 'max5', 'max20', 'team', 'enterprise'];
const MAX_PRICE = 100_000;
const bad = (message: string) => new HttpError(400, message);

function parsePlan(v: unknown): PlanSetting | null {
  if (v === null) return null;
  const o = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  if (!o || !PLANS.includes(o.plan as PlanKind)) throw bad(`Invalid plan: one of ${PLANS.join(', ')}`);
  const price = o.monthlyPrice;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > MAX_PRICE) {
    throw bad(`Invalid monthly price: a number of dollars from 0 to ${MAX_PRICE}`);
  }
  return { plan: o.plan as PlanKind, monthlyPrice: o.plan === 'api' ? 0 : price };
}

function parseThresholds(v: unknown): number[] {
  if (!Array.isArray(v) || v.length < 1 || v.length > 5 || v.some((n) => typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 100)) {
    throw bad('Invalid thresholds: 1 to 5 whole percents from 1 to 100');
  }
  return [...new Set(v as number[])].sort((a, b) => a - b);
}

export function parseLimitSettings(body: string): LimitSettingsChange {
  let o: unknown;
  try {
    o = JSON.parse(body);
  } catch {
    throw bad('Invalid JSON body');
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw bad('Expected a JSON object');
  const r = o as Record<string, unknown>;
  const change: LimitSettingsChange = {};
  if (r.thresholds !== undefined) change.thresholds = parseThresholds(r.thresholds);
  if (r.plan !== undefined) change.plan = parsePlan(r.plan);
  if (change.thresholds === undefined && change.plan === undefined) throw bad('Nothing to change: thresholds or plan');
  return change;
}
