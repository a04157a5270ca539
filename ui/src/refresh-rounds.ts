// One refresh's answers go on screen together. Every data element loads on its own (view-kit.ts ViewData), so the
// strip's Today and the Range cost card would otherwise be replaced a few milliseconds apart, and after a write in
// between, from two index generations. A load joins the round of its refreshKey and, once its answer is in, waits for
// the round's other loads before the element shows it; the live feed refetches a round whose answers disagree.

/** A load that does not answer in this long no longer holds the others back. */
const MAX_HOLD_MS = 1500;

interface Round {
  open: number;
  waiting: (() => void)[];
  timer: ReturnType<typeof setTimeout> | null;
}

const rounds = new Map<number, Round>();

function release(key: number, round: Round): void {
  if (rounds.get(key) === round) rounds.delete(key);
  if (round.timer) clearTimeout(round.timer);
  for (const w of round.waiting.splice(0)) w();
}

/**
 * Joins the round of `key` (a refreshKey); the function returned is called once the load settled and resolves when
 * every load of the round has (or after MAX_HOLD_MS).
 */
export function joinRound(key: number): () => Promise<void> {
  let round = rounds.get(key);
  if (!round) {
    const r: Round = { open: 0, waiting: [], timer: null };
    r.timer = setTimeout(() => release(key, r), MAX_HOLD_MS);
    rounds.set(key, r);
    round = r;
  }
  const joined = round;
  joined.open++;
  let left = false;
  return () =>
    new Promise<void>((resolve) => {
      if (left) return resolve();
      left = true;
      joined.open--;
      joined.waiting.push(resolve);
      // A macrotask later: the elements a render touched have all started their loads by then (Lit updates are
      // microtasks), so a load answered from memory does not close the round before the others joined.
      setTimeout(() => {
        if (joined.open === 0) release(key, joined);
      }, 0);
    });
}
