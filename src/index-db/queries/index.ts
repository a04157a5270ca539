// The Queries of types.ts, over one connection; every statement is prepared here, once.
import type Database from 'better-sqlite3';
import type { PriceTable } from '../../pricing/table.ts';
import type { Queries } from '../types.ts';
import { createBudgets, createPace } from './budgets.ts';
import { createCauses } from './causes.ts';
import { createEntrypoints } from './entrypoints.ts';
import { createEstimatedFast } from './estimated-fast.ts';
import { insights } from './insights.ts';
import { createLimits } from './limits.ts';
import { createMetrics } from './metrics.ts';
import { createMonthly } from './monthly.ts';
import { overview } from './overview.ts';
import { createProjectSessions } from './project-sessions.ts';
import { projects } from './projects.ts';
import { Reader } from './reader.ts';
import { createReceipt } from './receipt.ts';
import { createRepository } from './repository.ts';
import { createRetention } from './retention.ts';
import { createSession } from './session.ts';
import { createSessions } from './sessions.ts';
import { withSpans } from './spans.ts';

/** The name of the unlabelled dirs' machine when the caller gives none. */
const LOCAL = 'local';

/** Only reads: a time zone change is the writer's to catch up with (the reader then derives local figures, see reader.ts). */
export function createQueries(db: Database.Database, prices: () => PriceTable): Queries {
  const reader = new Reader(db);
  const projectSessions = createProjectSessions(db, reader);
  const session = createSession(db);
  const sessions = createSessions(db, reader);
  const repository = createRepository(db, reader);
  const entrypoints = createEntrypoints(db, reader);
  const causes = createCauses(db);
  const receipt = createReceipt(db, reader, prices);
  const estimatedFast = createEstimatedFast(db, prices);
  // Each ranged query gets its range's spans, resolved here once per call.
  return {
    metrics: createMetrics(db, reader),
    overview: (scope, machine = LOCAL) => overview(reader, entrypoints, estimatedFast, withSpans(scope), machine),
    insights: (scope) => insights(reader, causes, prices(), withSpans(scope)),
    monthly: createMonthly(reader),
    projects: (scope, machine = LOCAL) => projects(reader, withSpans(scope), machine),
    projectSessions: (project, scope) => projectSessions(project, withSpans(scope)),
    session: (id, scope, machine = LOCAL) => session(id, withSpans(scope), machine),
    sessions: (scope, machine = LOCAL) => sessions(withSpans(scope), machine),
    receipt: (scope) => receipt(withSpans(scope)),
    knowsMachine: (label) => [...reader.projects().values()].some((p) => p.machine === label),
    knowsProject: (id) => [...reader.projects().values()].some((p) => p.id === id),
    budgets: createBudgets(db, reader),
    limits: createLimits(db, reader),
    pace: createPace(reader),
    knowsRepository: (id) => [...reader.projects().values()].some((p) => p.repository.id === id),
    repository: (id, scope, machine = LOCAL) => repository(id, withSpans(scope), machine),
    retention: createRetention(db),
  };
}
