// The last price catalogue fetched from a URL, kept beside the index (`<index>.prices.json`): a command
// that writes the index prices new rows with the same table as the rows already there, without a fetch.
import fs from 'node:fs';

export const priceCacheFile = (indexFile: string): string => `${indexFile}.prices.json`;

/** Writes the catalogue text atomically (a reader never sees half a file); a failure only costs a later fetch. */
export function savePriceCache(file: string, source: string, catalogue: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify({ source, catalogue }));
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

/** The cached catalogue of `source` and when it was fetched, or null when there is none (or it is unreadable). */
export function loadPriceCache(file: string, source: string): { catalogue: unknown; fetchedMs: number } | null {
  try {
    const st = fs.statSync(file);
    const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as { source?: unknown; catalogue?: unknown };
    return cached.source === source ? { catalogue: cached.catalogue, fetchedMs: st.mtimeMs } : null;
  } catch {
    return null;
  }
}
