// Cost per git branch of the usage of some project folders (one, or a repository's) in a range, and the branches of
// each session. Read from those folders' messages (through their files' index: their rows only): no rollup keeps it.
import type Database from 'better-sqlite3';
import type { BranchRow } from '../../shared/api-types.ts';
import { HOUR_MS, iso } from '../time.ts';
import { totalTokens } from '../schema/measures.ts';

type Cell = [session: number, branch: string | null, messages: number, input: number, output: number, cacheCreate: number,
  cacheRead: number, cost: number, last: number];

export interface ProjectBranches {
  /** Most expensive first; `branch` null for usage recorded without one. */
  branches: BranchRow[];
  /** Session id -> its branch names, most expensive first. */
  bySession: Map<number, string[]>;
}

export function createBranches(db: Database.Database) {
  // Hour bounds as the hourly rollup cells, so the branches add up to the project's totals.
  const cells = db.prepare(`SELECT m.session_id, b.name, count(*), sum(m.input), sum(m.output), sum(m.cache_create),
      sum(m.cache_read), sum(m.cost), max(m.ts)
    FROM messages m LEFT JOIN branches b ON b.id = m.branch_id
    WHERE m.file_id IN (SELECT id FROM files WHERE project_id IN (SELECT value FROM json_each(?))) AND m.ts >= ? AND m.ts < ?
    GROUP BY m.session_id, m.branch_id`).raw(true);

  return function branches(projects: number[], hourFrom: number, hourTo: number): ProjectBranches {
    const byName = new Map<string | null, BranchRow & { sessionIds: Set<number>; last: number }>();
    const perSession = new Map<number, { name: string; cost: number }[]>();
    for (const [session, name, messages, input, output, cacheCreate, cacheRead, cost, last] of cells.all(JSON.stringify(projects), hourFrom * HOUR_MS, hourTo * HOUR_MS) as Cell[]) {
      let b = byName.get(name);
      if (!b) {
        b = { branch: name, cost: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0,
          messages: 0, sessions: 0, lastActivity: '', sessionIds: new Set(), last: -Infinity };
        byName.set(name, b);
      }
      b.cost += cost;
      b.messages += messages;
      b.inputTokens += input;
      b.outputTokens += output;
      b.cacheCreationTokens += cacheCreate;
      b.cacheReadTokens += cacheRead;
      b.totalTokens += totalTokens({ input, output, cacheCreate, cacheRead });
      b.sessionIds.add(session);
      b.last = Math.max(b.last, last);
      if (name !== null) {
        const list = perSession.get(session) ?? [];
        list.push({ name, cost });
        perSession.set(session, list);
      }
    }
    const branches = [...byName.values()]
      .map(({ sessionIds, last, ...row }) => ({ ...row, sessions: sessionIds.size, lastActivity: iso(last) }))
      .sort((a, b) => b.cost - a.cost || b.lastActivity.localeCompare(a.lastActivity));
    return { branches, bySession: namesByCost(perSession) };
  };
}

/**
 * The branches of some sessions of some project folders in a range, by session: only their messages are read, through
 * their files (a message's session is its file's, or its file has none: span-files.ts), instead of every message of
 * the folders, which over a 10 GiB history's every folder took seconds (bench/RESULTS.md).
 */
export function createSessionBranches(db: Database.Database) {
  const ids = (param: string): string => `(SELECT value FROM json_each(@${param}))`;
  // The same groups, the same sums and the same hour bounds as `createBranches` for these sessions.
  const cells = db.prepare(`SELECT m.session_id, b.name, sum(m.cost)
    FROM messages m LEFT JOIN branches b ON b.id = m.branch_id
    WHERE m.file_id IN (SELECT id FROM files WHERE session_id IN ${ids('sessions')} AND project_id IN ${ids('projects')}
        UNION ALL SELECT id FROM files WHERE session_id IS NULL AND project_id IN ${ids('projects')})
      AND m.session_id IN ${ids('sessions')} AND m.ts >= @from AND m.ts < @to
    GROUP BY m.session_id, m.branch_id`).raw(true);

  return function sessionBranches(projects: readonly number[], hourFrom: number, hourTo: number, sessions: readonly number[]): Map<number, string[]> {
    const perSession = new Map<number, { name: string; cost: number }[]>();
    const rows = cells.all({ projects: JSON.stringify(projects), sessions: JSON.stringify(sessions), from: hourFrom * HOUR_MS, to: hourTo * HOUR_MS });
    for (const [session, name, cost] of rows as [number, string | null, number][]) {
      if (name === null) continue;
      const list = perSession.get(session) ?? [];
      list.push({ name, cost });
      perSession.set(session, list);
    }
    return namesByCost(perSession);
  };
}

/** Each session's branch names, most expensive first (ties in the order they came). */
function namesByCost(perSession: Map<number, { name: string; cost: number }[]>): Map<number, string[]> {
  return new Map([...perSession].map(([id, list]) => [id, list.sort((a, b) => b.cost - a.cost).map((x) => x.name)]));
}
