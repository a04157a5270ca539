import * as assert from 'uvu/assert';

/** Deep equality with numbers to 1e-9 relative (the same sums taken in another order). */
export function near(a: unknown, b: unknown, at = '$'): void {
  if (typeof a === 'number' && typeof b === 'number') {
    assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)), `${at}: ${a} != ${b}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    assert.is(a.length, b.length, `${at}.length`);
    a.forEach((x, i) => near(x, b[i], `${at}[${i}]`));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    assert.equal(Object.keys(a).sort(), Object.keys(b).sort(), `${at} keys`);
    for (const k of Object.keys(a)) near((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
  } else {
    assert.equal(a, b, at);
  }
}
