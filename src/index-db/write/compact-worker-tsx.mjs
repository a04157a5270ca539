// Under tsx (the tests run the sources), the compaction worker's entry: registers tsx's loader in this thread, then
// loads the .ts worker (the --import a worker inherits is not in place yet when its entry loads). Never bundled: the
// built server starts dist/compact-worker.js, and the command line's bundle must not start the ES module loader.
import { register } from 'tsx/esm/api';

register();
await import('./compact-worker.ts');
