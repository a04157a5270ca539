// GET /api/sessions/:id: one session over all time (every message, subagents), plus the slices
// of it inside the range and inside today. A single session is small, so this reads its messages.
import type Database from 'better-sqlite3';
import type { SessionMessage, Totals } from '../../shared/api-types.ts';
import type { SessionData } from '../types.ts';
import { emptyTotals } from './fold.ts';
import { projectName } from './reader.ts';
import { iso } from '../time.ts';
import { totalTokens } from '../schema/measures.ts';
import type { SpannedScope } from './spans.ts';
import { createWorkflowRuns } from './workflow-runs.ts';

interface MsgRow {
  fileId: number; ts: number; model: string; agentId: number | null; input: number; output: number; cacheCreate: number;
  cacheRead: number; cache1h: number; webSearch: number; webFetch: number; fast: number; cost: number; tools: string;
}

export function createSession(db: Database.Database) {
  const head = db.prepare(`SELECT s.id, s.project_id AS projectId, s.sid, coalesce(s.title, nullif(trim(s.first_prompt), ''), s.agent_prompt || ' · subagent', s.sid) AS title, s.first_prompt AS firstPrompt,
      s.cwd, p.encoded, p.cwd AS projectCwd, mc.name AS machine
    FROM sessions s JOIN projects p ON p.id = s.project_id LEFT JOIN machines mc ON mc.id = p.machine_id WHERE s.sid = ?`);
  const messages = db.prepare(`SELECT m.file_id AS fileId, m.ts, md.name AS model, m.agent_id AS agentId, m.input, m.output, m.cache_create AS cacheCreate,
      m.cache_read AS cacheRead, m.cache_1h AS cache1h, m.web_search AS webSearch, m.web_fetch AS webFetch, m.fast, m.cost, m.tools
    FROM messages m JOIN models md ON md.id = m.model_id
    WHERE m.file_id IN (SELECT id FROM files WHERE session_id = @session OR (session_id IS NULL
      AND project_id IN (SELECT id FROM projects WHERE encoded = (SELECT encoded FROM projects WHERE id = @project)))) AND m.session_id = @session
    ORDER BY m.ts, m.id`);
  const agents = db.prepare('SELECT id, agent, type, description FROM agents WHERE session_id = ?');
  const workflowRuns = createWorkflowRuns(db);

  /** `localMachine`: this machine's name (--machine), the session's machine when its folder is unlabelled. */
  return function session(sessionId: string, scope: SpannedScope, localMachine: string): SessionData | null {
    const s = head.get(sessionId) as
      | { id: number; projectId: number; sid: string; title: string; firstPrompt: string | null; cwd: string | null; encoded: string; projectCwd: string | null; machine: string | null }
      | undefined;
    if (!s) return null;
    const runs = workflowRuns(s.id);
    const subs = new Map(
      (agents.all(s.id) as { id: number; agent: string; type: string | null; description: string | null }[]).map((a) => [
        a.id,
        { agentId: a.agent, agentType: a.type, description: a.description, cost: 0, messages: 0 },
      ]),
    );
    const all = emptyTotals();
    const inRange = emptyTotals();
    const today = emptyTotals();
    const list: SessionMessage[] = [];
    // A row's file is always one of its session's files (or a project-root file, attributed per line).
    for (const m of messages.all({ session: s.id, project: s.projectId }) as MsgRow[]) {
      add(all, m);
      if (m.ts >= scope.range.fromMs && m.ts < scope.range.toMs) add(inRange, m);
      if (m.ts >= scope.today.fromMs && m.ts < scope.today.toMs) add(today, m);
      const msg: SessionMessage = {
        timestamp: iso(m.ts), model: m.model, cost: m.cost, inputTokens: m.input, outputTokens: m.output,
        cacheCreationTokens: m.cacheCreate, cacheReadTokens: m.cacheRead, totalTokens: totalTokens(m),
        cache5mTokens: m.cacheCreate - m.cache1h, cache1hTokens: m.cache1h, webSearches: m.webSearch, webFetches: m.webFetch,
        fast: m.fast === 1,
        tools: m.tools ? m.tools.split(',') : [],
      };
      const agent = m.agentId === null ? undefined : subs.get(m.agentId);
      // A workflow run's usage is summed per run, its agents not one by one.
      const inRun = runs.add(m.fileId, m);
      if (agent) {
        if (!inRun) {
          agent.cost += m.cost;
          agent.messages++;
        }
        msg.subagent = { agentId: agent.agentId, agentType: agent.agentType };
      }
      list.push(msg);
    }
    const { cost, messages: messageCount, ...tokens } = all;
    return {
      id: s.sid, title: s.title, firstPrompt: s.firstPrompt, cwd: s.cwd,
      project: { id: s.encoded, name: projectName(s.encoded, s.projectCwd) },
      machine: s.machine ?? localMachine,
      cost, ...tokens, messageCount,
      firstActivity: list[0]?.timestamp ?? null,
      lastActivity: list.at(-1)?.timestamp ?? null,
      messages: list,
      subagents: [...subs.values()].filter((a) => a.messages > 0),
      workflows: runs.list(),
      inRange: inRange.messages ? inRange : null,
      today: today.messages ? today : null,
    };
  };
}

function add(t: Totals, m: MsgRow): void {
  t.cost += m.cost;
  t.messages++;
  t.inputTokens += m.input;
  t.outputTokens += m.output;
  t.cacheCreationTokens += m.cacheCreate;
  t.cacheReadTokens += m.cacheRead;
  t.totalTokens += totalTokens(m);
}
