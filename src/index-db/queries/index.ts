// The Queries of types.ts, over one connection; every statement is prepared here, once.
import type Database from 'better-sqlite3';
import type { PriceTable } from '../pricing/table.ts';
import type { Queries } from '../types.ts';
import { insights } from './insights.ts';
import { createMetrics } from './metrics.ts';
import { createMonthly } from './monthly.ts';
import { overview } from './overview.ts';
import { createProjectSessions } from './project-sessions.ts';
import { projects } from './projects.ts';
import { Reader } from './reader.ts';
import { createRepository } from './repository.ts';
import { createSession } from './session.ts';

/** The name of the unlabelled dirs' machine when the caller gives none. */
const LOCAL = 'local';

/** `syncTimeZone` rebuilds the daily rollup when the process time zone changed (see writer.ts). */
export function createQueries(db: Database.Database, prices: () => PriceTable, syncTimeZone: () => void): Queries {
  const reader = new Reader(db);
  const session = createSession(db);
  const repository = createRepository(db, reader, syncTimeZone);
  return {
    metrics: createMetrics(db, reader, syncTimeZone),
    overview: (scope, indexing, dirs, machine = LOCAL) => overview(reader, syncTimeZone, scope, indexing, dirs, machine),
    insights: (scope, indexing) => insights(reader, syncTimeZone, prices(), scope, indexing),
    monthly: createMonthly(db, reader, syncTimeZone),
    projects: (scope, machine = LOCAL) => projects(reader, syncTimeZone, scope, machine),
    projectSessions: createProjectSessions(db, reader, syncTimeZone),
    session: (id, scope, machine = LOCAL) => session(id, scope, machine),
    knowsMachine: (label) => [...reader.projects().values()].some((p) => p.machine === label),
    knowsRepository: (id) => [...reader.projects().values()].some((p) => p.repository.id === id),
    repository: (id, scope, machine = LOCAL) => repository(id, scope, machine),
  };
}
