// The `cost-dashboard` executable (dist/main.js). A first argument that is not a flag is a command of the
// command line (src/cli); anything else starts the server as always. Each side is its own chunk, loaded only
// when it runs: a statusline must not pay for loading the server's modules.
const first = process.argv[2];
if (first !== undefined && !first.startsWith('-')) {
  const { runCli } = await import('./cli/index.ts');
  process.exitCode = await runCli(process.argv.slice(2), process.env);
} else {
  await import('./main/index.ts');
}
