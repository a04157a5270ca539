// Boundary-aware model-name lookup (decisions.md "Model lookup"). Pure; PriceTable caches results per name.
//
// 0. a bracketed suffix (`[1m]`) is not part of the name (shared/model-name.ts);
// 1. exact key; 2. `anthropic/<name>`; 3. both again with '.' and '@' replaced by '-';
// 4. the longest key that is a prefix of the name ending at a separator, unless the next segment
//    is a version number (digits other than an 8-digit date): `claude-sonnet-4` prices
//    `claude-sonnet-4-20250514` but `claude-opus-4` does not price `claude-opus-4-6`.
// Steps 1-3 accept any key, since an exact id is unambiguous (Bedrock's `us.anthropic.claude-…`
// ids are real model names). Step 4 only considers plain keys and `anthropic/` keys (plain wins):
// other prefixes (azure/, openrouter/, bedrock/, vertex_ai/…) carry resale or regional prices.

import { servedModel } from '../shared/model-name.ts';

const SEPARATOR = /[-_:/]/;
const VERSION = /^\d+$/;
const DATE = /^\d{8}$/;
const ANTHROPIC = 'anthropic/';

function normalise(name: string): string {
  return name.replace(/[.@]/g, '-');
}

/** The segment after the matched key blocks the match when it is a version number. */
function blocks(rest: string): boolean {
  const segment = rest.split(SEPARATOR, 1)[0]!;
  return VERSION.test(segment) && !DATE.test(segment);
}

export type Lookup = (name: string) => string | null;

export function createLookup(keys: Iterable<string>): Lookup {
  const exact = new Set<string>();
  // normalised stem -> [rank, key]; a lower rank wins: plain before anthropic/, already-normal before rewritten.
  const stems = new Map<string, [number, string]>();
  for (const key of keys) {
    exact.add(key);
    const prefixed = key.startsWith(ANTHROPIC);
    if (!prefixed && key.includes('/')) continue;
    const bare = prefixed ? key.slice(ANTHROPIC.length) : key;
    const stem = normalise(bare);
    const rank = (prefixed ? 2 : 0) + (stem === bare ? 0 : 1);
    const held = stems.get(stem);
    if (!held || rank < held[0] || (rank === held[0] && key < held[1])) stems.set(stem, [rank, key]);
  }

  const direct = (name: string): string | null =>
    exact.has(name) ? name : exact.has(ANTHROPIC + name) ? ANTHROPIC + name : null;

  return (served) => {
    const name = servedModel(served);
    const found = direct(name);
    if (found) return found;
    let norm = normalise(name);
    if (norm !== name) {
      const again = direct(norm);
      if (again) return again;
    }
    if (norm.startsWith(ANTHROPIC)) norm = norm.slice(ANTHROPIC.length);
    const whole = stems.get(norm);
    if (whole) return whole[1];
    for (let i = norm.length - 1; i > 0; i--) {
      if (!SEPARATOR.test(norm[i]!)) continue;
      const held = stems.get(norm.slice(0, i));
      if (held && !blocks(norm.slice(i + 1))) return held[1];
    }
    return null;
  };
}
