// Limit hits from real-shaped transcript lines: which window the text names, when it resets (in the zone it names,
// else the local one; the 2025 epoch form exactly), and what is no hit (a server throttle, another API error, an
// ordinary assistant line). A text that cannot be read is a hit without a window or reset.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { extractLimitHit, resetOfText, windowOfText } from '../../src/workers/limit-hit.ts';
import { apiErrorLine, hitLine, throttleLine } from '../helpers/limit-lines.ts';
import { usageLine } from '../helpers/jsonl.ts';

const t = suite('limit hits');
// 2026-03-10 13:20 UTC = 20:20 in Asia/Saigon (UTC+7), 14:20 in Europe/Berlin (CET).
const AT = Date.UTC(2026, 2, 10, 13, 20);

t('a session limit hit names the 5-hour window and its reset in the zone it names', () => {
  const hit = extractLimitHit(hitLine("You've hit your session limit · resets 9:50pm (Asia/Saigon)", AT));
  assert.ok(hit);
  assert.is(hit.window, 'five_hour');
  assert.is(hit.at, AT);
  assert.is(new Date(hit.resetsAt!).toISOString(), '2026-03-10T14:50:00.000Z');
});

t('a reset clock already past in its zone is the next day', () => {
  // 20:20 in Saigon: 9am is tomorrow's.
  assert.is(new Date(resetOfText('resets 9am (Asia/Saigon)', AT)!).toISOString(), '2026-03-11T02:00:00.000Z');
});

t('weekly and model-weekly hits, with a date in the reset', () => {
  const weekly = extractLimitHit(hitLine("You've hit your weekly limit · resets Mar 13, 10am (Europe/Berlin)", AT));
  assert.is(weekly?.window, 'seven_day');
  assert.is(new Date(weekly!.resetsAt!).toISOString(), '2026-03-13T09:00:00.000Z');
  const opus = extractLimitHit(hitLine("You've hit your Opus limit · resets Mar 12, 4pm (America/New_York)", AT));
  assert.is(opus?.window, 'seven_day_opus');
  assert.is(new Date(opus!.resetsAt!).toISOString(), '2026-03-12T20:00:00.000Z'); // EDT from Mar 8
});

t('"5-hour limit reached ∙ resets 3pm" has no zone: the local one', () => {
  const before = process.env.TZ;
  process.env.TZ = 'Asia/Tokyo';
  try {
    const hit = extractLimitHit(hitLine('5-hour limit reached ∙ resets 3pm', Date.UTC(2026, 2, 10, 2, 0))); // 11:00 in Tokyo
    assert.is(hit?.window, 'five_hour');
    assert.is(new Date(hit!.resetsAt!).toISOString(), '2026-03-10T06:00:00.000Z');
  } finally {
    process.env.TZ = before;
  }
});

t('the 2025 form gives the reset exactly, and no window', () => {
  const hit = extractLimitHit(apiErrorLine({ text: 'Claude AI usage limit reached|1751385600', at: Date.UTC(2025, 6, 1, 13, 0), version: '1.0.38' }));
  assert.ok(hit);
  assert.is(hit.resetsAt, 1751385600 * 1000);
  assert.is(hit.window, null);
});

t('a server throttle, another API error and an ordinary line are no hits', () => {
  assert.is(extractLimitHit(throttleLine(AT)), null);
  assert.is(extractLimitHit(apiErrorLine({ text: 'API Error: 500 {"type":"error","error":{"type":"api_error"}}', at: AT, error: 'unknown', status: 500 })), null);
  assert.is(extractLimitHit(apiErrorLine({ text: 'Prompt is too long', at: AT, error: 'invalid_request' })), null);
  assert.is(extractLimitHit(usageLine({})), null);
});

t('a rate_limit line whose text cannot be read is a hit without a window or reset', () => {
  const line = hitLine('', AT);
  (line.message as Record<string, unknown>).content = { weird: true };
  const hit = extractLimitHit(line);
  assert.ok(hit);
  assert.is(hit.window, null);
  assert.is(hit.resetsAt, null);
  const garbled = extractLimitHit(hitLine("You've hit your limit · resets 27:99xm (Nowhere/Zone)", AT));
  assert.ok(garbled);
  assert.is(garbled.resetsAt, null);
});

t('the key is the message id, so a copy of the line in a resumed session is the same hit', () => {
  const a = extractLimitHit(hitLine("You've hit your session limit · resets 9:50pm (Asia/Saigon)", AT, { id: 'msg-x', sessionId: 's1' }));
  const b = extractLimitHit(hitLine("You've hit your session limit · resets 9:50pm (Asia/Saigon)", AT, { id: 'msg-x', sessionId: 's2' }));
  assert.is(a?.key, b?.key);
});

t('window names', () => {
  assert.is(windowOfText('Sonnet weekly limit reached ∙ resets Mon 9am'), 'seven_day_sonnet');
  assert.is(windowOfText('Weekly limit reached ∙ resets Oct 9, 10am'), 'seven_day');
  assert.is(windowOfText('Claude usage limit reached.'), null);
});

t.run();
