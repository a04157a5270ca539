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

/** Only reads: a time zone change is the writer's to catch up with (the reader then derives local figures, see reader.ts). */
export function createQueries(db: Database.Database, prices: () => PriceTable): Queries {
  const reader = new Reader(db);
  return {
    metrics: createMetrics(db, reader),
    overview: (scope, indexing, dirs, machine = LOCAL) => overview(reader, scope, indexing, dirs, machine),
    insights: (scope, indexing) => insights(reader, prices(), scope, indexing),
    monthly: createMonthly(reader),
    projects: (scope) => projects(reader, scope),
    projectSessions: createProjectSessions(db, reader),
    session: createSession(db),
    knowsMachine: (label) => [...reader.projects().values()].some((p) => p.machine === label),
    knowsRepository: (id) => [...reader.projects().values()].some((p) => p.repository.id === id),
    repository: createRepository(db, reader),
  };
}
