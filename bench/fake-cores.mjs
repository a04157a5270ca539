// Bench only: `node --import ./bench/fake-cores.mjs dist/main.js ...` with COST_BENCH_CORES=N makes the server size
// its worker pool as on an N-core machine (pool.ts reads os.availableParallelism()), so the memory of N workers can
// be measured on a smaller one. The cores themselves stay what they are: wall times under it mean nothing.
import os from 'node:os';

const cores = Number(process.env.COST_BENCH_CORES);
if (Number.isInteger(cores) && cores > 0) os.availableParallelism = () => cores;
