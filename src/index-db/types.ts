// The narrow interface the rest of the server sees of the index. Only the writer's owner writes (src/ingest's
// pipeline and the command line's catch-up through applyBatch and friends, src/main's budgets through the settings);
// src/http only reads (through `queries`).
import type { IndexFailure } from './errors.ts';
import type { Recovery } from './recovery.ts';
import type { UsageBatch } from '../workers/protocol.ts';
import type { ReceiptFigures } from '../shared/receipt-types.ts';
import type { BudgetStatus, LimitsData, PeriodPace, Overview, Insights, Monthly, ProjectRow, ProjectSessions, SessionDetail, SessionList, RepositoryDetail } from '../shared/api-types.ts';
import type { PriceTable } from '../pricing/table.ts';
import type { Reports } from './queries/reports.ts';
import type { RetentionQueries } from './queries/retention.ts';
import type { QueryScope } from './query-scope.ts';
import type { SettingChange } from './settings.ts';
import type { LimitReading } from './limit-readings.ts';

/** Where a transcript sits in the config dir; decided by discovery from its path alone. */
export interface FileRole {
  /** Encoded project folder name. */
  project: string;
  /** Session the file belongs to: the file name for a session file, the folder for a subagent file, null for any other file (attributed per line by its sessionId). */
  session: string | null;
  /** Subagent id (from `agent-<id>.jsonl`), null for a main transcript. */
  agentId: string | null;
  /** From `agent-<id>.meta.json` beside a subagent file. */
  agentType: string | null;
  agentDescription: string | null;
  /** The --dir label of the dir the file was read from; absent or null: this machine's unlabelled dirs. */
  machine?: string | null;
}

/** Per-file read position; see ARCHITECTURE.md "cursors". */
export interface FileCursor {
  size: number;
  mtimeMs: number;
  /** Offset just after the last complete line consumed. */
  offset: number;
  /** Hex of the first HEAD_BYTES bytes when they were read ('' before). */
  head: string;
  gone: boolean;
  /** The session of this file has a first prompt already. */
  hasPrompt: boolean;
}

export interface IndexStats {
  files: number;
  filesGone: number;
  messages: number;
  /** Copies dropped by dedup (kept as alternates). */
  duplicates: number;
  lines: number;
  usageLines: number;
  malformed: number;
  giant: number;
  blank: number;
  /** Usage lines skipped for a number outside what a real request can be. */
  outOfRange: number;
  /** Files that could not be read (permission, I/O), with the last error. */
  unreadable: number;
  /** Epoch ms of the newest usage entry, null when there is none. */
  newestTs: number | null;
}


export type { QueryScope };

/** What GET /metrics exposes: all-time sums per project x model, and the gauges of now. */
export interface MetricsSnapshot {
  /** `machine`: the --dir label the entries were read under, null for this machine's unlabelled dirs. */
  series: { machine: string | null; project: string; projectName: string; model: string; messages: number; input: number; output: number; cacheCreate: number; cacheRead: number; cost: number }[];
  /** Cost of the local day of now. */
  todayCost: number;
  /** The active 5-hour block's cost and seconds left; 0 and 0 without one. */
  blockCost: number;
  blockRemainingSeconds: number;
  /** Newest usage entry (epoch seconds), null when the index is empty. */
  lastEntrySeconds: number | null;
  /** Lines skipped as malformed or oversized. */
  skippedLines: number;
}

/**
 * What the queries answer: the figures of a response without its envelope, the range and scope the route resolved and
 * the server's own state (indexing progress, dirs, health), which the route (src/http/routes/data.ts) adds around them.
 */
export type OverviewData = Omit<Overview, 'range' | 'project' | 'repository' | 'indexing' | 'final' | 'dirs' | 'health'>;
export type InsightsData = Omit<Insights, 'range' | 'project' | 'repository' | 'indexing' | 'final'>;
export type MonthlyData = Omit<Monthly, 'project' | 'final'>;
export type ProjectSessionsData = Omit<ProjectSessions, 'range' | 'final'>;
export type RepositoryData = Omit<RepositoryDetail, 'range' | 'final'>;
export type SessionListData = Omit<SessionList, 'range' | 'final' | 'project' | 'repository'>;
export type SessionData = Omit<SessionDetail, 'range' | 'final'>;

export interface Queries {
  /** The /metrics figures at instant `now`; `series` false: no series (a caller that kept them from the same index). */
  metrics(now: number, series?: boolean): MetricsSnapshot;
  /** `machine`: this machine's name (--machine), the name of what the unlabelled dirs hold in `machines`. */
  overview(scope: QueryScope, machine?: string): OverviewData;
  insights(scope: QueryScope): InsightsData;
  /** Every local month of the history, all projects or one (an unknown one: no months). */
  monthly(scope: QueryScope): MonthlyData;
  /** `machine`: this machine's name (--machine), what the unlabelled dirs read as in each row's `machines`. */
  projects(scope: QueryScope, machine?: string): ProjectRow[];
  /** null when the project is unknown. */
  projectSessions(project: string, scope: QueryScope): ProjectSessionsData | null;
  /** The range's sessions across the projects in scope, the dearest first. `machine` as for projects(). */
  sessions(scope: QueryScope, machine?: string): SessionListData;
  /** null when the session is unknown. `machine`: this machine's name, the session's when its folder is unlabelled. */
  session(sessionId: string, scope: QueryScope, machine?: string): SessionData | null;
  /**
   * The range's messages in scope (one session's with `session`) itemised against the installed prices; null when the
   * session is unknown. Asynchronous: a long range is read a few files at a time, other answers going between.
   */
  receipt(scope: QueryScope & { session?: string | null }): Promise<ReceiptFigures | null>;
  /** Whether some project folder belongs to the repository (its main checkout's path). */
  knowsRepository(id: string): boolean;
  /** Whether some project folder was read under the --dir label. */
  knowsMachine(label: string): boolean;
  /** Whether the index holds a project folder of this encoded name. */
  knowsProject(id: string): boolean;
  /** Every budget (settings.ts) against its period around `now`: daily, weekly, monthly, every project first. */
  budgets(now: number): BudgetStatus[];
  /** The plan limits at `now`: each window's last reading, pace and forecast, the hits, the recent readings. */
  limits(now: number): LimitsData;
  /** The day, week and month around `now` for a scope, each with the one projection budgets use too. */
  pace(now: number, ask: { project: string | null; repository?: string | null; machine?: string | null }): PeriodPace[];
  /** null when no project folder belongs to the repository (its main checkout's path). `machine` as for projects(). */
  repository(id: string, scope: QueryScope, machine?: string): RepositoryData | null;
  /** What the index holds of gone transcripts and which it read that are still there (GET /api/retention). */
  retention: RetentionQueries;
}

/** What a process that does not write the index may do with it. */
export interface IndexReader {
  stats(): IndexStats;
  /** The last recovery of the file from damage (recovery.ts), null when it never needed one. */
  recovered(): Recovery | null;
  queries: Queries;
  /**
   * Changes whenever what the queries read may have changed (a write of this process, a commit of another one): the
   * server's result cache is keyed by it and the page is told when it moves.
   */
  generation(): number;
  /**
   * Runs `read` (queries, stats, reports) against one state of the file. A reader's statements each see the writer's
   * latest commit, so an answer that reads more than once runs in one (read-connection.ts snapshotOf); the writer's
   * connection sees only its own writes, which wait for the turn to end, so it just runs `read`.
   */
  snapshot<T>(read: () => T): T;
  /** The command line's reads (src/cli). */
  reports: Reports;
  /** Whether a reprice is under way (meta `reprice`, write/reprice.ts): figures are not final until it is done. */
  repricing(): boolean;
  close(): void;
}

export interface IndexDb extends IndexReader {
  /** Cursor of a known file, undefined for a new one. */
  cursorOf(path: string): FileCursor | undefined;
  /** The zone a parse task folds local hours in (FoldRequest.zone); null: none Intl knows by name, the writer folds. */
  foldZone(): string | null;
  /** Folds one worker result into the index in one transaction and advances the file's cursor. */
  applyBatch(batch: UsageBatch, role: FileRole, size: number, mtimeMs: number): void;
  /** The file shrank or its head changed: drop its rows (promoting other copies) and reset its cursor. */
  resetFile(path: string): void;
  /** The file disappeared: keep its rows, mark it gone. */
  markGone(path: string): void;
  /** A file could not be read; counted in stats. */
  markUnreadable(path: string, error: string): void;
  /**
   * While transcripts are read newest first, the time from which figures are final (IndexingState.finalSince), for
   * readers of the file without the server's API (the statusline); null once every listed file is read.
   */
  setFinalSince(iso: string | null): void;
  /**
   * Installs a price table; when it prices a stored model otherwise than the stored costs were computed, reprices its
   * rows: the first chunk at once, the rest a chunk at a time between which the event loop runs (write/reprice.ts).
   */
  setPrices(table: PriceTable): void;
  /** Runs what is left of a reprice under way at once (a command before it reads). */
  finishReprice(): void;
  /** Bumps on every write (and every rolled-back one). */
  dataVersion(): number;
  /** Encoded project folders with a cwd and no repository yet, with that cwd. */
  unresolvedRepositories(): { project: string; cwd: string }[];
  /** Records the repository (main checkout path) of a project folder; kept for good once set. */
  setRepository(project: string, repository: string): void;
  /** Writes settings (settings.ts) durably before returning; throws IndexWriteError when the file cannot take them. */
  writeSettings(changes: readonly SettingChange[]): void;
  /** Stores plan limit readings (a probe's answer; limit-store.ts), each once; returns how many were new. */
  addLimitReadings(readings: readonly LimitReading[]): number;
  /** Takes in the statusline's side file of readings (limit-readings.ts) past the last intake. */
  takeInLimitReadings(sideFile: string): { added: number; skipped: number };
  /**
   * Rebuilds the local rollups when the process time zone is not the one they hold (done at open and before every
   * write; the queries never rebuild, they derive local figures from the messages meanwhile). A failure is logged.
   */
  syncTimeZone(): void;
  /**
   * Reads up to `rows` more of the stored dedup keys into the writer's memory; true once all are there. Called in slices
   * after the start-up scan, so the first write after a restart does not wait for them all; a write reads the rest.
   */
  preloadKeys(rows: number): boolean;
  /**
   * At the end of a command's catch-up: commits and writes the file again whole (VACUUM) on this connection when this
   * writer has added as many messages as it held before, and at least 50,000 (a first index leaves its pages about
   * half full); true when it did. Holds the writer for seconds on a big history; readers of other connections are not
   * held. The server uses compactInBackground instead.
   */
  compactIfDue(): boolean;
  /**
   * The server's compaction (same rule): commits, holds this connection's writes and runs the VACUUM on a worker
   * thread with a connection of its own, so the queries go on answering from the last commit; resolves when writes
   * go on again, true when it compacted. Never rejects: a failure is logged and leaves the file as it was.
   */
  compactInBackground(): Promise<boolean>;
  /**
   * Non-null while a compaction holds the writes: resolves when they may go on. Every writer of the server awaits it
   * before writing (a write meanwhile is refused with IndexWriteError 'busy' rather than wait on the lock).
   */
  writesHeld(): Promise<void> | null;
  /** SQLite's quick_check of the whole file: 'ok' or what is damaged (reads every page: seconds on a big index). */
  quickCheck(): string;
  /** Why writes fail now (a full disk: what was read since is not in the file yet), null while they work. */
  writeFailure(): IndexFailure | null;
  /**
   * Commits, then writes the whole index as it is to `file`, a new file (`VACUUM INTO`): how a file deleted while this
   * process writes it is written back from the connection that still holds it.
   */
  copyTo(file: string): void;
}
