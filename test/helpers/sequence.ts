// A fixed sequence of numbers for test data (a Lehmer generator, no randomness: a failure reproduces). Token counts
// drawn from it give costs with long binary fractions, where an order of summation shows in the last bit.

/** `next(max)`: the sequence's next number from `seed`, in [0, max). */
export function sequence(seed: number): (max: number) => number {
  let n = seed;
  return (max) => (n = (n * 48271) % 2147483647) % max;
}
