// Requires a CommonJS file through V8's code cache, kept in a file beside it: a statusline render or a report is a
// new process each time, and compiling its bundle (and the functions it runs) is a measurable part of each one's
// CPU. For Node < 22.1, which has no compile cache of its own (module.enableCompileCache). The cache file is
// named by the Node version and the bundle's size and mtime, so a rebuilt bundle never meets the code of another (V8
// itself only checks the length of the source); build.mjs removes the old ones. Where the folder is not writable (an
// install owned by another user) there is no cache, and the file is compiled as require() would.
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');
import nodeModule = require('node:module');

function requireWithCodeCache(file: string): unknown {
  const st = fs.statSync(file);
  const cacheFile = `${file}.${process.version}-${st.size}-${Math.trunc(st.mtimeMs)}.v8cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // the first run of this build on this Node
  }
  const script = new vm.Script(nodeModule.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
  const mod = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(mod.exports, mod.exports, nodeModule.createRequire(file), mod, file, path.dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    // At exit, so the cache also holds the functions this run compiled; renamed into place, so no run reads half.
    process.once('exit', () => {
      const tmp = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
      } catch {
        fs.rmSync(tmp, { force: true });
      }
    });
  }
  return mod.exports;
}

export = requireWithCodeCache;
