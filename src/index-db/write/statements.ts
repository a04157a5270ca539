// The writer's prepared statements, typed by what they serve: the stored copies of messages, and the facts of files,
// projects and sessions.
import type Database from 'better-sqlite3';
import { packKey, unpackKey } from '../key-packing.ts';
import type { RowShape } from '../message-inserts.ts';
import type { Msg } from '../rollup.ts';
import { TOKEN_KINDS } from '../schema/measures.ts';
import { CAUSE_KEYS } from '../schema/rollups.ts';

/**
 * The columns of issue 32's price rules and causes (US-only inference, an advisor iteration, the five cause ids): 0 on
 * every row whose line carries none of those fields, as every line before late 2026 does. Such a row is inserted
 * without them (their default is 0), which binds seven values fewer (message-inserts.ts).
 */
const LATE_COL_LIST = ['geo', 'advisor', ...CAUSE_KEYS];
/** The stored message columns (the key as `packKey` stores it, read back by `unpackKey`). */
const PLAIN_COL_LIST = ['hkey', 'stored_key', 'file_id', 'off', 'ts', 'project_id', 'session_id', 'model_id', 'agent_id',
  ...TOKEN_KINDS.map((k) => k.column), 'fast', 'cost_usd', 'cost', 'tools', 'branch_id', 'entrypoint_id'];
const MSG_COL_LIST = [...PLAIN_COL_LIST, ...LATE_COL_LIST];
const MSG_COLS = MSG_COL_LIST.join(', ');
const MSG_VALUES = `(${MSG_COL_LIST.map(() => '?').join(',')})`;
/** The message columns under the names of `Msg`, from table alias `t`. */
const msgSelect = (t: string): string => `${t}.id, ${t}.hkey, ${t}.stored_key AS key, ${t}.file_id AS file, ${t}.off, ${t}.ts, ${t}.project_id AS project,
  ${t}.session_id AS session, ${t}.model_id AS model, ${t}.agent_id AS agent,
  ${TOKEN_KINDS.map((k) => `${t}.${k.column} AS ${k.field}`).join(', ')},
  ${t}.fast, ${t}.cost_usd AS costUSD, ${t}.cost, ${t}.tools, ${t}.branch_id AS branch,
  ${t}.entrypoint_id AS entrypoint, ${t}.geo, ${t}.advisor,
  ${t}.skill_id AS skill, ${t}.mcp_server_id AS mcpServer, ${t}.mcp_tool_id AS mcpTool, ${t}.agent_type_id AS agentType,
  ${t}.effort_id AS effort`;

/** A stored copy of a message, with its row id (in `messages` or `alternates`). */
export type StoredMsg = Msg & { id: number };

/** A row of msgSelect as a StoredMsg: its stored key read back. */
function storedMsg(row: unknown): StoredMsg {
  const m = row as StoredMsg;
  m.key = unpackKey(m.key);
  return m;
}

/** A message's values of the plain columns (PLAIN_COL_LIST), appended to `out` (the buffered inserts' one array). */
const pushPlainParams = (m: Msg, out: unknown[]): void => {
  out.push(m.hkey, packKey(m.key), m.file, m.off, m.ts, m.project, m.session, m.model, m.agent);
  for (const k of TOKEN_KINDS) out.push(m[k.field]);
  out.push(m.fast, m.costUSD, m.cost, m.tools, m.branch, m.entrypoint);
};
/** A message's values of MSG_COLS, appended to `out`. */
const pushParams = (m: Msg, out: unknown[]): void => {
  pushPlainParams(m, out);
  out.push(m.geo, m.advisor, m.skill, m.mcpServer, m.mcpTool, m.agentType, m.effort); // in LATE_COL_LIST's order
};
/** Whether every late column of a message holds its default, 0. */
const isPlain = (m: Msg): boolean => (m.geo | m.advisor | m.skill | m.mcpServer | m.mcpTool | m.agentType | m.effort) === 0;

/** The shapes the buffered inserts write messages in: without the late columns when they are all 0, else whole. */
export const MSG_SHAPES: readonly RowShape<Msg>[] = [
  { columns: PLAIN_COL_LIST.join(', '), write: pushPlainParams, fits: isPlain },
  { columns: MSG_COLS, write: pushParams },
];
export const params = (m: Msg): unknown[] => {
  const out: unknown[] = [];
  pushParams(m, out);
  return out;
};

/** The winners (`messages`) and the losing copies kept from other files (`alternates`). */
export class MessageStatements {
  readonly insert: Database.Statement;
  private readonly byIdSql: Database.Statement;
  readonly replace: Database.Statement;
  readonly demote: Database.Statement;
  readonly insertAlt: Database.Statement;
  private readonly fileMsgsSql: Database.Statement;
  readonly deleteFileMsgs: Database.Statement;
  private readonly bestAltSql: Database.Statement;
  readonly promote: Database.Statement;
  readonly deleteAlt: Database.Statement;
  readonly deleteFileAlts: Database.Statement;

  constructor(db: Database.Database) {
    this.insert = db.prepare(`INSERT INTO messages (${MSG_COLS}) VALUES ${MSG_VALUES}`);
    this.byIdSql = db.prepare(`SELECT ${msgSelect('m')} FROM messages m WHERE id = ?`);
    this.replace = db.prepare(`UPDATE messages SET (${MSG_COLS}) = ${MSG_VALUES} WHERE id = ?`);
    this.demote = db.prepare(`INSERT INTO alternates (${MSG_COLS}) SELECT ${MSG_COLS} FROM messages WHERE id = ?`);
    this.insertAlt = db.prepare(`INSERT INTO alternates (${MSG_COLS}) VALUES ${MSG_VALUES}`);
    this.fileMsgsSql = db.prepare(`SELECT ${msgSelect('m')} FROM messages m WHERE file_id = ?`);
    this.deleteFileMsgs = db.prepare('DELETE FROM messages WHERE file_id = ?');
    this.bestAltSql = db.prepare(`SELECT ${msgSelect('a')}
      FROM alternates a JOIN files f ON f.id = a.file_id WHERE a.hkey = ? AND a.stored_key = ?
      ORDER BY a.output DESC, coalesce(f.first_ts, 9e15), f.path, a.off LIMIT 1`);
    this.promote = db.prepare(`INSERT INTO messages (${MSG_COLS}) SELECT ${MSG_COLS} FROM alternates WHERE id = ?`);
    this.deleteAlt = db.prepare('DELETE FROM alternates WHERE id = ?');
    this.deleteFileAlts = db.prepare('DELETE FROM alternates WHERE file_id = ?');
  }

  /** The stored winner of row id `id`. */
  byId(id: number): StoredMsg | undefined {
    const row = this.byIdSql.get(id);
    return row === undefined ? undefined : storedMsg(row);
  }

  /** A file's stored winners. */
  fileMsgs(fileId: number): StoredMsg[] {
    return this.fileMsgsSql.all(fileId).map(storedMsg);
  }

  /** The best alternate of a key (`hkey`: its winner's), as the dedup rules rank copies; the stored forms compare as the keys. */
  bestAlt(hkey: number, key: string): StoredMsg | undefined {
    const row = this.bestAltSql.get(hkey, packKey(key));
    return row === undefined ? undefined : storedMsg(row);
  }
}

/** A file's role, cursor and line counts, and what its lines tell of its project and session. */
export class FileStatements {
  readonly role: Database.Statement;
  readonly firstTs: Database.Statement;
  readonly cursor: Database.Statement;
  readonly reset: Database.Statement;
  readonly gone: Database.Statement;
  readonly unreadable: Database.Statement;
  readonly readCursor: Database.Statement;
  readonly projectCwd: Database.Statement;
  readonly unresolved: Database.Statement;
  readonly projectRepo: Database.Statement;
  readonly sessionCwd: Database.Statement;
  readonly sessionTitle: Database.Statement;
  readonly sessionPrompt: Database.Statement;
  readonly storedPrompt: Database.Statement;
  readonly replacePrompt: Database.Statement;
  readonly agentPrompt: Database.Statement;

  constructor(db: Database.Database) {
    this.role = db.prepare('UPDATE files SET project_id = ?, session_id = ?, agent_id = ?, main = ? WHERE id = ?');
    this.firstTs = db.prepare('UPDATE files SET first_ts = ? WHERE id = ?');
    this.cursor = db.prepare(`UPDATE files SET size = ?, mtime = ?, off = ?, head = CASE WHEN ? = '' THEN head ELSE ? END, gone = 0, error = NULL,
      lines = lines + ?, usage_lines = usage_lines + ?, blank = blank + ?, malformed = malformed + ?, giant = giant + ?,
      out_of_range = out_of_range + ? WHERE id = ?`);
    this.reset = db.prepare(`UPDATE files SET size = 0, mtime = 0, off = 0, head = '', first_ts = NULL,
      lines = 0, usage_lines = 0, blank = 0, malformed = 0, giant = 0, out_of_range = 0 WHERE id = ?`);
    this.gone = db.prepare('UPDATE files SET gone = 1 WHERE path = ?');
    this.unreadable = db.prepare('UPDATE files SET error = ? WHERE id = ?');
    this.readCursor = db.prepare(`SELECT f.size, f.mtime AS mtimeMs, f.off AS offset, f.head, f.gone, f.main, f.agent_id IS NOT NULL AS sub,
        s.first_prompt AS prompt, s.agent_prompt IS NOT NULL AS hasAgentPrompt
      FROM files f LEFT JOIN sessions s ON s.id = coalesce(f.session_id, (SELECT session_id FROM agents WHERE id = f.agent_id)) WHERE f.path = ?`);
    this.projectCwd = db.prepare('UPDATE projects SET cwd = ?, cwd_ts = ? WHERE id = ? AND (cwd_ts IS NULL OR cwd_ts <= ?)');
    this.unresolved = db.prepare('SELECT encoded AS project, cwd FROM projects WHERE repo IS NULL AND cwd IS NOT NULL');
    this.projectRepo = db.prepare('UPDATE projects SET repo = ? WHERE encoded = ? AND repo IS NULL');
    this.sessionCwd = db.prepare('UPDATE sessions SET cwd = ? WHERE id = ?');
    this.sessionTitle = db.prepare(`UPDATE sessions SET title = ?, title_kind = ? WHERE id = ? AND (? = 'custom' OR title_kind IS NOT 'custom')`);
    this.sessionPrompt = db.prepare('UPDATE sessions SET first_prompt = ? WHERE id = ? AND first_prompt IS NULL');
    this.storedPrompt = db.prepare('SELECT first_prompt FROM sessions WHERE id = ?').pluck();
    this.replacePrompt = db.prepare('UPDATE sessions SET first_prompt = ? WHERE id = ?');
    this.agentPrompt = db.prepare('UPDATE sessions SET agent_prompt = ? WHERE id = ? AND agent_prompt IS NULL');
  }
}
