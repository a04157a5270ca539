// Cost and tokens per entrypoint (what started Claude Code: cli, claude-vscode, sdk-ts, ...) of a range's messages.
// No rollup keeps the entrypoint: the range's messages are read through the (file_id, ts) index (span-files.ts), the
// files of a scope's folders only when there is a scope.
import type Database from 'better-sqlite3';
import type { EntrypointCost } from '../../shared/api-types.ts';
import { isProgrammatic } from '../../shared/entrypoints.ts';
import { totalTokens } from '../schema/measures.ts';
import type { ProjectSet } from './scope.ts';
import { spanFiles, spanHours } from './span-files.ts';

type Cell = [entrypoint: string | null, messages: number, input: number, output: number, cacheCreate: number,
  cacheRead: number, cost: number];

export type Entrypoints = (fromMs: number, toMs: number, projects: ProjectSet) => EntrypointCost[];

export function createEntrypoints(db: Database.Database): Entrypoints {
  const sql = (scope: string): Database.Statement => db.prepare(`SELECT e.name, count(*), sum(m.input), sum(m.output),
      sum(m.cache_create), sum(m.cache_read), sum(m.cost)
    FROM messages m LEFT JOIN entrypoints e ON e.id = m.entrypoint_id
    WHERE m.file_id IN (${spanFiles('?', '?', scope)}) AND m.ts >= ? AND m.ts < ? ${scope.replace('project_id', 'm.project_id')}
    GROUP BY m.entrypoint_id`).raw(true);
  const every = sql('');
  const some = sql('AND project_id IN (SELECT value FROM json_each(@p))');

  /** Most expensive first; `entrypoint` null for the entries whose line names none. */
  return function entrypoints(fromMs, toMs, projects) {
    const rows = projects === null
      ? every.all(...spanHours(fromMs, toMs), fromMs, toMs)
      : some.all(...spanHours(fromMs, toMs), fromMs, toMs, { p: JSON.stringify(projects) });
    const by = new Map<string | null, EntrypointCost>();
    for (const [name, messages, input, output, cacheCreate, cacheRead, cost] of rows as Cell[]) {
      let e = by.get(name);
      if (!e) {
        e = { entrypoint: name, programmatic: isProgrammatic(name), cost: 0, messages: 0, inputTokens: 0, outputTokens: 0,
          cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 };
        by.set(name, e);
      }
      e.cost += cost;
      e.messages += messages;
      e.inputTokens += input;
      e.outputTokens += output;
      e.cacheCreationTokens += cacheCreate;
      e.cacheReadTokens += cacheRead;
      e.totalTokens += totalTokens({ input, output, cacheCreate, cacheRead });
    }
    return [...by.values()].sort((a, b) => b.cost - a.cost || (a.entrypoint ?? '').localeCompare(b.entrypoint ?? ''));
  };
}
