// A session's workflow runs (GET /api/sessions/:id `workflows`): the session's subagent files grouped by the run
// folder their path names (shared/workflow-run.ts), each run's usage summed from the messages the session query
// reads, message by message, so the runs and the plain subagents add up to the session's subagent usage.
import type Database from 'better-sqlite3';
import type { WorkflowRun } from '../../shared/api-types.ts';
import { workflowRunOf } from '../../shared/workflow-run.ts';
import type { UsageCounts } from '../../workers/protocol.ts';
import { totalTokens, type TotalField } from '../schema/measures.ts';
import { iso } from '../time.ts';

type RunUsage = Pick<UsageCounts, 'input' | 'output' | 'cacheCreate' | 'cacheRead' | TotalField> & { ts: number; cost: number };

interface Run {
  runId: string;
  agents: Set<number>;
  messages: number;
  cost: number;
  input: number;
  output: number;
  cacheCreate: number;
  cacheRead: number;
  total: number;
  first: number | null;
  last: number | null;
}

/** The workflow runs of one session, filled by `add` with each of its messages. */
export class WorkflowRuns {
  private readonly byFile = new Map<number, Run>();
  private readonly runs = new Map<string, Run>();

  constructor(files: readonly { id: number; agent: number; path: string }[]) {
    for (const f of files) {
      const runId = workflowRunOf(f.path);
      if (runId === null) continue;
      let run = this.runs.get(runId);
      if (!run) {
        run = { runId, agents: new Set(), messages: 0, cost: 0, input: 0, output: 0, cacheCreate: 0, cacheRead: 0, total: 0, first: null, last: null };
        this.runs.set(runId, run);
      }
      run.agents.add(f.agent);
      this.byFile.set(f.id, run);
    }
  }

  /** Counts a message of the session in its file's run; false when its file is in none. */
  add(fileId: number, m: RunUsage): boolean {
    const run = this.byFile.get(fileId);
    if (!run) return false;
    run.messages++;
    run.cost += m.cost;
    run.input += m.input;
    run.output += m.output;
    run.cacheCreate += m.cacheCreate;
    run.cacheRead += m.cacheRead;
    run.total += totalTokens(m);
    if (run.first === null || m.ts < run.first) run.first = m.ts;
    if (run.last === null || m.ts > run.last) run.last = m.ts;
    return true;
  }

  /** The runs, earliest first (runs with no usage yet last, by id). */
  list(): WorkflowRun[] {
    return [...this.runs.values()]
      .sort((a, b) => (a.first ?? Infinity) - (b.first ?? Infinity) || (a.runId < b.runId ? -1 : 1))
      .map((r) => ({
        runId: r.runId, agents: r.agents.size, messages: r.messages, cost: r.cost,
        inputTokens: r.input, outputTokens: r.output, cacheCreationTokens: r.cacheCreate, cacheReadTokens: r.cacheRead, totalTokens: r.total,
        firstActivity: r.first === null ? null : iso(r.first), lastActivity: r.last === null ? null : iso(r.last),
      }));
  }
}

/** The statement that reads a session's subagent files, prepared once. */
export function createWorkflowRuns(db: Database.Database): (session: number) => WorkflowRuns {
  const files = db.prepare('SELECT id, agent_id AS agent, path FROM files WHERE session_id = ? AND agent_id IS NOT NULL');
  return (session) => new WorkflowRuns(files.all(session) as { id: number; agent: number; path: string }[]);
}
