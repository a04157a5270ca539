// Applying a batch: a file's role and facts, its rows settled against the stored copies of their keys, the rollups
// moved by as much, and its cursor, in one transaction. A batch arrives with its rows decided and summed by the parse
// worker (workers/fold.ts): the best copy of each key within it and its rollup groups by names. Also the reverse: a
// reset file's rows taken out.
import type Database from 'better-sqlite3';
import { dedupKey, foldBatch } from '../../workers/fold.ts';
import {
  decodeStrings, FLAG, GROUP, GROUP_COLS, hashKey, NUM, NUM_COLS, STR, STR_COLS, TOOL, TOOL_COLS, type BatchFold, type UsageBatch,
} from '../../workers/protocol.ts';
import { isEnvironmental, writeErrorOf } from '../errors.ts';
import { isHousekeeping } from '../../shared/housekeeping.ts';
import type { FileInfo, IdMaps } from '../id-maps.ts';
import { RollupDelta, type GroupSums, type Msg, type RollupStatements } from '../rollup.ts';
import { TOKEN_KINDS } from '../schema/measures.ts';
import type { FileRole } from '../types.ts';
import type { UndoLog } from '../undo-log.ts';
import type { Costs } from './costs.ts';
import type { LocalZone } from './local-zone.ts';
import type { FileStatements } from './statements.ts';
import type { StoredCopies } from './stored-copies.ts';

/** A group of a batch's winners, with the names its ids stand for. */
type NamedGroup = GroupSums & { sid: string; modelName: string };

export class BatchApplier {
  /** Applies a batch in one transaction; `careful` places its rows one by one, skipping those the index rejects. */
  readonly applyTx: (batch: UsageBatch, role: FileRole, size: number, mtimeMs: number, careful: boolean) => void;
  readonly resetTx: (path: string) => void;
  private readonly placeTx: (m: Msg, file: FileInfo) => void;

  constructor(
    db: Database.Database,
    private readonly ids: IdMaps,
    private readonly undo: UndoLog,
    private readonly files: FileStatements,
    private readonly copies: StoredCopies,
    private readonly rollups: RollupStatements,
    private readonly costs: Costs,
    private readonly zone: LocalZone,
    private readonly log: (msg: string) => void,
  ) {
    this.applyTx = db.transaction(this.apply.bind(this));
    this.placeTx = db.transaction((m: Msg, file: FileInfo) => {
      const delta = new RollupDelta(this.zone.lhourOf);
      const placed = this.copies.place(m, file);
      if (placed === 'kept') return;
      if (placed !== 'new') delta.add(placed, -1);
      delta.add(m, 1);
      delta.flush(this.rollups);
    });
    this.resetTx = db.transaction(this.reset.bind(this));
  }

  private apply(batch: UsageBatch, role: FileRole, size: number, mtimeMs: number, careful: boolean): void {
    const c = this.ids;
    const project = c.project(role.project, role.machine ?? null);
    const file = c.file(batch.path);
    const meta = batch.meta;
    // The session the file's own facts (title, prompt, cwd) belong to; none for a project-root file without ids.
    const sid = role.session ?? meta.sessionId ?? null;
    const session = sid === null ? null : c.session(sid, project);
    const main = role.session !== null && role.agentId === null;
    // A subagent's file; a project-root `agent-<id>.jsonl` (2.0.x) belongs to the session its lines name.
    const agent = role.agentId !== null && session !== null
      ? c.agent(session, role.agentId, role.agentType, role.agentDescription)
      : null;
    const f = this.files;
    f.role.run(project, role.session !== null ? session : null, agent, main ? 1 : 0, file.id);
    if (meta.firstTs !== undefined && (file.firstTs === null || meta.firstTs < file.firstTs)) {
      c.setFirstTs(file, meta.firstTs);
      f.firstTs.run(meta.firstTs, file.id);
    }
    if (meta.cwd) {
      const at = file.firstTs ?? 0;
      f.projectCwd.run(meta.cwd, at, project, at);
      if (session !== null) f.sessionCwd.run(meta.cwd, session);
    }
    if (session !== null && meta.title && meta.titleKind) f.sessionTitle.run(meta.title, meta.titleKind, session, meta.titleKind);
    if (session !== null && meta.firstPrompt && main) this.storePrompt(session, meta.firstPrompt);
    if (agent !== null && meta.firstPrompt) f.agentPrompt.run(meta.firstPrompt, session);

    const strs = decodeStrings(batch.strTable);
    const fold = this.foldOf(batch, strs, role);
    const invalid = fold.unstorable;
    const groups = this.groupsOf(fold, project);
    const winner = (w: number): Msg => this.winnerOf(batch, strs, fold, groups, role, file, w);
    let rejected = 0;
    let reason = '';
    if (!careful) {
      const delta = new RollupDelta(this.zone.lhourOf);
      this.copies.inserts.gather(() => this.placeWinners(fold, groups, file, winner, delta));
      for (const g of groups) delta.addGroup(g);
      const t = fold.tools;
      for (let at = 0; at < t.length; at += TOOL_COLS) {
        delta.addTool(t[at + TOOL.hour]!, t[at + TOOL.day]!, project, fold.names[t[at + TOOL.tool]!]!, t[at + TOOL.n]!);
      }
      delta.flush(this.rollups);
    } else {
      for (let w = 0; w < fold.winners.length; w++) {
        const m = winner(w);
        const mark = this.undo.mark();
        try {
          this.placeTx(m, file);
        } catch (err) {
          const failure = writeErrorOf(err);
          if (isEnvironmental(failure)) throw err;
          this.undo.rollbackTo(mark);
          rejected++;
          reason = failure.message;
        }
      }
    }
    if (invalid) this.log(`skipped ${invalid} usage line${invalid === 1 ? '' : 's'} of ${batch.path} with a count, cost or timestamp the index cannot store`);
    if (rejected) this.log(`skipped ${rejected} usage line${rejected === 1 ? '' : 's'} of ${batch.path} that the index rejected (${reason})`);

    const st = batch.stats;
    // Skipped and counted, and the file read on: rows out of range as such, rows a statement rejected as malformed.
    f.cursor.run(size, mtimeMs, batch.consumedTo, batch.head, batch.head,
      st.lines, st.usageLines, st.blank, st.malformed + rejected, st.giant, st.outOfRange + invalid, file.id);
  }

  /**
   * Places each winner of a folded batch. The group's sums hold every winner: a row the index already holds (the same
   * line again, or a copy that loses to the stored one) is taken out again, and a replaced winner's old copy too.
   */
  private placeWinners(fold: BatchFold, groups: NamedGroup[], file: FileInfo, winner: (w: number) => Msg, delta: RollupDelta): void {
    for (let w = 0; w < fold.winners.length; w++) {
      const m = winner(w);
      const g = groups[fold.groupOf[w]!]!;
      g.cost += m.cost;
      delta.addEntrypoint(m, 1);
      delta.addCause(m, 1);
      delta.addFile(m, 1);
      delta.addBranch(m, 1);
      const placed = this.copies.place(m, file, true);
      if (placed === 'kept') {
        delta.add(m, -1);
        continue;
      }
      if (placed !== 'new') delta.add(placed, -1);
      if (g.first === null || m.ts < g.first) g.first = m.ts;
      if (g.last === null || m.ts > g.last) g.last = m.ts;
    }
  }

  /**
   * The batch's fold: the worker's, when it folded for this role and for the zone of the local rollups; else (another
   * zone since the task left, a batch built without one) folded here.
   */
  private foldOf(batch: UsageBatch, strs: readonly string[], role: FileRole): BatchFold {
    const f = batch.fold;
    const zone = this.zone.zone;
    if (f && f.zone === zone && f.session === role.session && f.agentId === role.agentId) return f;
    return foldBatch(batch, strs, { session: role.session, agentId: role.agentId, zone }, this.zone.lhourOf);
  }

  /** A session's first prompt: the first one stored stays, unless it is a housekeeping command and this one is not. */
  private storePrompt(session: number, prompt: string): void {
    const f = this.files;
    if (isHousekeeping(prompt)) {
      f.sessionPrompt.run(prompt, session);
      return;
    }
    const stored = f.storedPrompt.get(session) as string | null | undefined;
    if (stored == null || isHousekeeping(stored)) f.replacePrompt.run(prompt, session);
  }

  /** The fold's groups with their names mapped to ids, no cost and no kept times yet (the writer adds them). */
  private groupsOf(fold: BatchFold, project: number): NamedGroup[] {
    const c = this.ids;
    const g = fold.groups;
    const out: NamedGroup[] = [];
    for (let at = 0; at < g.length; at += GROUP_COLS) {
      const sid = fold.names[g[at + GROUP.session]!]!;
      const modelName = fold.names[g[at + GROUP.model]!]!;
      const group: NamedGroup = {
        sid, modelName, hour: g[at + GROUP.hour]!, lhour: g[at + GROUP.lhour]!, project,
        session: c.session(sid, project), model: c.model(modelName, this.costs.priced),
        sub: g[at + GROUP.sub]!, n: g[at + GROUP.n]!, input: 0, output: 0, cacheCreate: 0, cacheRead: 0, cache1h: 0,
        webSearch: 0, webFetch: 0, cost: 0, first: null, last: null,
      };
      for (const k of TOKEN_KINDS) group[k.field] = g[at + GROUP[k.field]]!;
      out.push(group);
    }
    return out;
  }

  /** The fold's `w`th winner as a message. */
  private winnerOf(batch: UsageBatch, strs: readonly string[], fold: BatchFold, groups: readonly NamedGroup[], role: FileRole, file: FileInfo, w: number): Msg {
    const c = this.ids;
    const { nums, flags, strIdx } = batch;
    const i = fold.winners[w]!;
    const g = groups[fold.groupOf[w]!]!;
    const n = i * NUM_COLS;
    const s = i * STR_COLS;
    const off = nums[n + NUM.offset]!;
    const key = dedupKey(strs[strIdx[s + STR.messageId]!]!, strs[strIdx[s + STR.requestId]!]!, g.sid) ?? `f${file.id} ${off}`;
    // The worker hashed the global key form; the others need the session or file id, known here only.
    const hkey = nums[n + NUM.hkey]!;
    const agentKey = role.agentId ?? (strs[strIdx[s + STR.agentId]!]! || null);
    const agent = agentKey === null
      ? null
      : role.session !== null && role.agentId !== null
        ? c.agent(g.session, agentKey, role.agentType, role.agentDescription)
        : c.agent(g.session, agentKey);
    const cost = nums[n + NUM.costUSD]!;
    const m: Msg = {
      hkey: Number.isNaN(hkey) ? hashKey(key) : hkey, key, file: file.id, off, ts: nums[n + NUM.ts]!, project: g.project,
      session: g.session, model: g.model, agent,
      input: nums[n + NUM.input]!, output: nums[n + NUM.output]!, cacheCreate: nums[n + NUM.cacheCreate]!,
      cacheRead: nums[n + NUM.cacheRead]!, cache1h: nums[n + NUM.cache1h]!, webSearch: nums[n + NUM.webSearch]!,
      webFetch: nums[n + NUM.webFetch]!, fast: flags[i]! & FLAG.fast ? 1 : 0, geo: flags[i]! & FLAG.geo ? 1 : 0,
      advisor: flags[i]! & FLAG.advisor ? 1 : 0, costUSD: Number.isNaN(cost) ? null : cost, cost: 0,
      tools: strs[strIdx[s + STR.tools]!]!, branch: c.branch(strs[strIdx[s + STR.branch]!]!),
      entrypoint: c.entrypoint(strs[strIdx[s + STR.entrypoint]!]!),
      // each field in the literal itself (not spread from another object), so every Msg keeps one shape: the rollup
      // and insert code that reads them is measurably slower on mixed shapes (bench/RESULTS.md "Issue 32")
      skill: c.cause(strs[strIdx[s + STR.skill]!]!), mcpServer: c.cause(strs[strIdx[s + STR.mcpServer]!]!),
      mcpTool: c.cause(strs[strIdx[s + STR.mcpTool]!]!), agentType: c.cause(strs[strIdx[s + STR.agentType]!]!),
      effort: c.cause(strs[strIdx[s + STR.effort]!]!),
    };
    m.cost = this.costs.costOf(g.modelName, m);
    return m;
  }

  /** Takes a file's rows out (its alternates promoted where they win) and sets its cursor back to the start. */
  private reset(path: string): void {
    const f = this.ids.files.get(path)!;
    const delta = new RollupDelta(this.zone.lhourOf);
    this.copies.removeFile(f, delta);
    delta.flush(this.rollups);
    this.files.reset.run(f.id);
    this.ids.setFirstTs(f, null);
  }
}
