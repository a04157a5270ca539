// Installs ccusage 20.0.24 (the reference the differential test and the bench compare against) into the
// git-ignored .cache/ccusage folder once, and prints the path of its binary. Exit code 1 when it cannot be installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CCUSAGE_VERSION = '20.0.24';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prefix = path.join(root, '.cache', 'ccusage');
const bin = path.join(prefix, 'node_modules', '.bin', 'ccusage');

export function ensureCcusage() {
  const pkg = path.join(prefix, 'node_modules', 'ccusage', 'package.json');
  const installed = fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).version === CCUSAGE_VERSION;
  if (!installed) {
    fs.mkdirSync(prefix, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const native = `@ccusage/ccusage-${process.platform}-${process.arch}@${CCUSAGE_VERSION}`;
    execFileSync(npm, ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `ccusage@${CCUSAGE_VERSION}`, native], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  if (!fs.existsSync(bin)) throw new Error(`ccusage ${CCUSAGE_VERSION} binary missing at ${bin}`);
  return bin;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    console.log(ensureCcusage());
  } catch (err) {
    console.error(`cannot install ccusage ${CCUSAGE_VERSION}: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
