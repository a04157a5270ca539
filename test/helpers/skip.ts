// uvu has no skip. A test that cannot run here (a tool that cannot be installed) calls skipTest and returns (the line
// starts on a line of its own, after the suite name uvu has printed):
// scripts/run-tests.mjs counts each `SKIP:` line as a skipped test instead of a passed one, and prints the reason.
export function skipTest(reason: string): void {
  console.log(`\nSKIP: ${reason.replace(/\s+/g, ' ').trim()}`);
}
