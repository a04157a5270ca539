// Cost per git branch of the usage of some project folders (one, or a repository's) in a range, and the branches of
// each session: read from those folders' messages (through their files' index: their rows only), with their tokens and
// the usage recorded on no branch. The Sessions view's branches of some sessions: from their rollup.
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
 * The branches of some sessions of some project folders in a range, by session, from the hourly rollup of their costs
 * (usage_hourly_branch): reading those sessions' messages took ~150 ms for a long range's 300 dearest at 10 GiB. The
 * same hours as `createBranches` reads (whole UTC hours) and the same groups; the sums are the rollup's, which may
 * differ from the messages' in the last bit, so two branches of one session that cost the same to within a rounding
 * may come in either order.
 */
export function createSessionBranches(db: Database.Database) {
  const ids = (param: string): string => `(SELECT value FROM json_each(@${param}))`;
  const cells = db.prepare(`SELECT c.session_id, b.name, sum(c.cost)
    FROM usage_hourly_branch c JOIN branches b ON b.id = c.branch_id
    WHERE c.hour >= @from AND c.hour < @to AND c.session_id IN ${ids('sessions')} AND c.project_id IN ${ids('projects')}
    GROUP BY c.session_id, c.branch_id`).raw(true);

  return function sessionBranches(projects: readonly number[], hourFrom: number, hourTo: number, sessions: readonly number[]): Map<number, string[]> {
    const perSession = new Map<number, { name: string; cost: number }[]>();
    const rows = cells.all({ projects: JSON.stringify(projects), sessions: JSON.stringify(sessions), from: hourFrom, to: hourTo });
    for (const [session, name, cost] of rows as [number, string, number][]) {
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
