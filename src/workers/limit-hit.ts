// Pure: a transcript line where Claude Code reports that a plan limit stopped a turn -> the hit (when, which window,
// when it resets). Claude Code writes such a line as a synthetic assistant message (`isApiErrorMessage`, model
// `<synthetic>`, zero usage) whose text says which limit and when it resets, in the zone it names or the local one.
// A server throttle ("not your usage limit") and other API errors are no hits. Never throws on any JSON value.
import { DAY_MS } from '../calendar/days.ts';
import { ianaZone, instantOf, systemZone, type Zone } from '../calendar/zone.ts';
import { isRecord, timestampOf } from './extract.ts';
import type { LimitHit } from './protocol.ts';

/** The longest text kept of a hit (the message is one short sentence). */
const TEXT_MAX = 300;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Claude Code 2025: `Claude AI usage limit reached|<epoch seconds of the reset>`. */
const EPOCH_FORM = /usage limit reached\|(\d{9,11})\b/i;
const THROTTLE = /not your usage limit/i;
const LIMIT_TEXT = /limit reached|hit your [\w\s-]*limit|usage limit/i;
/** `resets 9:50pm (Asia/Saigon)`, `resets Oct 9, 10am`, `resets 3pm`: the clock, an optional date before it, the zone. */
const RESETS = /resets\s+(?:([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?\s*([ap]m)?\s*(?:\(([^)]+)\))?/i;

function textOf(message: unknown): string {
  if (!isRecord(message)) return '';
  const c = message.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c.map((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join(' ');
}

/** The window a hit's text names, as the probe and the statusline name windows; null when it names none. */
export function windowOfText(text: string): string | null {
  const t = text.toLowerCase();
  const model = /\b(opus|sonnet|haiku)\b/.exec(t)?.[1];
  if (model && /limit/.test(t)) return `seven_day_${model}`;
  if (/weekly|7-day|seven.day/.test(t)) return 'seven_day';
  if (/session limit|5-hour|five.hour|5 hour/.test(t)) return 'five_hour';
  return null;
}

function zoneNamed(name: string | undefined): Zone {
  if (!name) return systemZone;
  try {
    return ianaZone(name.trim());
  } catch {
    return systemZone;
  }
}

/**
 * The reset instant a hit's text gives, after the hit's own time `at`: the named wall-clock time in the named zone
 * (else the local one), on the named date or the first day on which it comes after `at`. null when there is none.
 */
export function resetOfText(text: string, at: number): number | null {
  const epoch = EPOCH_FORM.exec(text);
  if (epoch) return Number(epoch[1]) * 1000;
  const m = RESETS.exec(text);
  if (!m) return null;
  let hour = Number(m[3]);
  const minute = m[4] === undefined ? 0 : Number(m[4]);
  const half = m[5]?.toLowerCase();
  if (half && (hour < 1 || hour > 12)) return null;
  if (half === 'pm' && hour !== 12) hour += 12;
  if (half === 'am' && hour === 12) hour = 0;
  if (hour > 23 || minute > 59) return null;
  const zone = zoneNamed(m[6]);
  const local = new Date(at + zone.offsetAt(at)); // the hit's local wall clock, read with the UTC getters
  const clock = (hour * 60 + minute) * 60_000;
  if (m[1] !== undefined) {
    const month = MONTHS.indexOf(m[1].toLowerCase());
    const day = Number(m[2]);
    if (month < 0 || day < 1 || day > 31) return null;
    for (const year of [local.getUTCFullYear(), local.getUTCFullYear() + 1]) {
      const t = instantOf(zone, Date.UTC(year, month, day) + clock);
      if (t > at - DAY_MS) return t;
    }
    return null;
  }
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const today = instantOf(zone, midnight + clock);
  return today > at ? today : instantOf(zone, midnight + DAY_MS + clock);
}

/**
 * The hit a line reports, or null when it reports none: an API error line whose error is `rate_limit` or whose text
 * says a usage limit was reached, but not the server's own throttling. Its key is the message's id (copies of the
 * line in a resumed session share it), else the session and time.
 */
export function extractLimitHit(line: Record<string, unknown>): LimitHit | null {
  if (line.isApiErrorMessage !== true) return null;
  const text = textOf(line.message).trim();
  if (THROTTLE.test(text)) return null;
  if (line.error !== 'rate_limit' && !LIMIT_TEXT.test(text)) return null;
  const at = timestampOf(line);
  if (!Number.isFinite(at)) return null;
  const id = isRecord(line.message) && typeof line.message.id === 'string' ? line.message.id : '';
  const session = typeof line.sessionId === 'string' ? line.sessionId : '';
  return {
    key: id || `${session}@${at}`,
    at,
    window: windowOfText(text),
    resetsAt: resetOfText(text, at),
    text: text.slice(0, TEXT_MAX),
  };
}
