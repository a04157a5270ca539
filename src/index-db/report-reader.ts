// A command's view of the index when it only reads (src/cli/run-report.ts): one query-only connection with the
// reports' statements and nothing else. The full reader (index.ts openIndexReader) also prepares every query of the
// dashboard, which a report never runs and which costs several times the reports' own open (bench/RESULTS.md, issue 35).
import { openReadConnection, snapshotOf } from './read-connection.ts';
import { createReports } from './queries/reports.ts';
import type { IndexReader } from './types.ts';

export type ReportReader = Pick<IndexReader, 'reports' | 'snapshot' | 'close'>;

/** Throws IndexWriteError as openReadConnection does (busy while a writer creates the file, an older schema). */
export function openReportReader(file: string): ReportReader {
  const db = openReadConnection(file);
  return { reports: createReports(db), snapshot: snapshotOf(db), close: () => db.close() };
}
