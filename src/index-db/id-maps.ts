// Name -> id maps of the small tables (projects, sessions, models, agents, files), loaded once and
// kept in memory so the writer resolves a row's ids without a query. Every change is also logged in
// the writer's UndoLog, so a rolled-back write takes its new names out again.
import type Database from 'better-sqlite3';
import type { UndoLog } from './undo-log.ts';

export interface FileInfo {
  id: number;
  path: string;
  /** Earliest timestamp in the file; null sorts after every timestamp. */
  firstTs: number | null;
}

interface AgentInfo {
  id: number;
  type: string | null;
  description: string | null;
}

/** Key of a project folder of a machine in `IdMaps.projects` (machine id null: this machine). */
const projectKey = (encoded: string, machine: number | null): string => (machine === null ? encoded : `${machine}\n${encoded}`);

export class IdMaps {
  /** projectKey -> id. */
  readonly projects = new Map<string, number>();
  readonly machines = new Map<string, number>();
  readonly sessions = new Map<string, number>();
  readonly models = new Map<string, number>();
  /** id -> name, for repricing. */
  readonly modelNames = new Map<number, string>();
  /** `${sessionId} ${agent}` -> id and the type/description stored for it */
  readonly agents = new Map<string, AgentInfo>();
  readonly branches = new Map<string, number>();
  readonly entrypoints = new Map<string, number>();
  /** The names of what caused messages (skills, MCP servers and tools, agent types, efforts): one table for all. */
  readonly causes = new Map<string, number>();
  readonly files = new Map<string, FileInfo>();
  readonly filesById = new Map<number, FileInfo>();

  private readonly insProject: Database.Statement;
  private readonly insMachine: Database.Statement;
  private readonly insSession: Database.Statement;
  private readonly insModel: Database.Statement;
  private readonly insAgent: Database.Statement;
  private readonly setAgentInfo: Database.Statement;
  private readonly insFile: Database.Statement;
  private readonly insBranch: Database.Statement;
  private readonly insEntrypoint: Database.Statement;
  private readonly insCause: Database.Statement;

  constructor(db: Database.Database, private readonly undo: UndoLog) {
    for (const r of db.prepare('SELECT id, name FROM machines').all() as { id: number; name: string }[]) this.machines.set(r.name, r.id);
    for (const r of db.prepare('SELECT id, encoded, machine_id AS machine FROM projects').all() as { id: number; encoded: string; machine: number | null }[]) {
      this.projects.set(projectKey(r.encoded, r.machine), r.id);
    }
    for (const r of db.prepare('SELECT id, sid FROM sessions').all() as { id: number; sid: string }[]) this.sessions.set(r.sid, r.id);
    for (const r of db.prepare('SELECT id, name FROM models').all() as { id: number; name: string }[]) {
      this.models.set(r.name, r.id);
      this.modelNames.set(r.id, r.name);
    }
    const agents = db.prepare('SELECT id, session_id, agent, type, description FROM agents').all() as
      { id: number; session_id: number; agent: string; type: string | null; description: string | null }[];
    for (const r of agents) this.agents.set(`${r.session_id} ${r.agent}`, { id: r.id, type: r.type, description: r.description });
    for (const r of db.prepare('SELECT id, path, first_ts AS firstTs FROM files').all() as FileInfo[]) this.remember(r);
    this.insProject = db.prepare('INSERT INTO projects (encoded, machine_id) VALUES (?, ?)');
    this.insMachine = db.prepare('INSERT INTO machines (name) VALUES (?)');
    this.insSession = db.prepare('INSERT INTO sessions (sid, project_id) VALUES (?, ?)');
    this.insModel = db.prepare('INSERT INTO models (name, priced) VALUES (?, ?)');
    this.insAgent = db.prepare('INSERT INTO agents (session_id, agent, type, description) VALUES (?, ?, ?, ?)');
    this.setAgentInfo = db.prepare(
      'UPDATE agents SET type = coalesce(?, type), description = coalesce(?, description) WHERE id = ?',
    );
    this.insFile = db.prepare('INSERT INTO files (path) VALUES (?)');
    for (const r of db.prepare('SELECT id, name FROM branches').all() as { id: number; name: string }[]) this.branches.set(r.name, r.id);
    this.insBranch = db.prepare('INSERT INTO branches (name) VALUES (?)');
    for (const r of db.prepare('SELECT id, name FROM entrypoints').all() as { id: number; name: string }[]) this.entrypoints.set(r.name, r.id);
    this.insEntrypoint = db.prepare('INSERT INTO entrypoints (name) VALUES (?)');
    for (const r of db.prepare('SELECT id, name FROM causes').all() as { id: number; name: string }[]) this.causes.set(r.name, r.id);
    this.insCause = db.prepare('INSERT INTO causes (name) VALUES (?)');
  }

  /** The folder `encoded` of `machine` (a --dir label; null: this machine's unlabelled dirs). */
  project(encoded: string, machine: string | null = null): number {
    const m = machine === null ? null : this.machine(machine);
    const key = projectKey(encoded, m);
    let id = this.projects.get(key);
    if (id === undefined) {
      id = Number(this.insProject.run(encoded, m).lastInsertRowid);
      this.projects.set(key, id);
      this.undo.push(() => this.projects.delete(key));
    }
    return id;
  }

  private machine(name: string): number {
    let id = this.machines.get(name);
    if (id === undefined) {
      id = Number(this.insMachine.run(name).lastInsertRowid);
      this.machines.set(name, id);
      this.undo.push(() => this.machines.delete(name));
    }
    return id;
  }

  /** A session belongs to the project it was first seen in. */
  session(sid: string, project: number): number {
    let id = this.sessions.get(sid);
    if (id === undefined) {
      id = Number(this.insSession.run(sid, project).lastInsertRowid);
      this.sessions.set(sid, id);
      this.undo.push(() => this.sessions.delete(sid));
    }
    return id;
  }

  model(name: string, priced: (name: string) => boolean): number {
    let id = this.models.get(name);
    if (id === undefined) {
      id = Number(this.insModel.run(name, priced(name) ? 1 : 0).lastInsertRowid);
      this.models.set(name, id);
      this.modelNames.set(id, name);
      const added = id;
      this.undo.push(() => {
        this.models.delete(name);
        this.modelNames.delete(added);
      });
    }
    return id;
  }

  /** Type and description, when given, refresh a known agent (its meta file may appear later). */
  agent(session: number, agent: string, type: string | null = null, description: string | null = null): number {
    const k = `${session} ${agent}`;
    const known = this.agents.get(k);
    if (known === undefined) {
      const id = Number(this.insAgent.run(session, agent, type, description).lastInsertRowid);
      this.agents.set(k, { id, type, description });
      this.undo.push(() => this.agents.delete(k));
      return id;
    }
    // Called for every row of a subagent file: write only what changes.
    if ((type !== null && type !== known.type) || (description !== null && description !== known.description)) {
      this.setAgentInfo.run(type, description, known.id);
      const was = { type: known.type, description: known.description };
      this.undo.push(() => Object.assign(known, was));
      known.type = type ?? known.type;
      known.description = description ?? known.description;
    }
    return known.id;
  }

  /** A git branch name's id; null for none (''). */
  branch(name: string): number | null {
    if (!name) return null;
    let id = this.branches.get(name);
    if (id === undefined) {
      id = Number(this.insBranch.run(name).lastInsertRowid);
      this.branches.set(name, id);
      this.undo.push(() => this.branches.delete(name));
    }
    return id;
  }

  /** An entrypoint name's id; 0 for none (''). */
  entrypoint(name: string): number {
    if (!name) return 0;
    let id = this.entrypoints.get(name);
    if (id === undefined) {
      id = Number(this.insEntrypoint.run(name).lastInsertRowid);
      this.entrypoints.set(name, id);
      this.undo.push(() => this.entrypoints.delete(name));
    }
    return id;
  }

  /** The id of a cause's name (a skill, MCP server or tool, agent type or effort); 0 for none (''): direct. */
  cause(name: string): number {
    if (!name) return 0;
    let id = this.causes.get(name);
    if (id === undefined) {
      id = Number(this.insCause.run(name).lastInsertRowid);
      this.causes.set(name, id);
      this.undo.push(() => this.causes.delete(name));
    }
    return id;
  }

  file(path: string): FileInfo {
    let f = this.files.get(path);
    if (!f) {
      const added: FileInfo = { id: Number(this.insFile.run(path).lastInsertRowid), path, firstTs: null };
      this.remember(added);
      this.undo.push(() => {
        this.files.delete(path);
        this.filesById.delete(added.id);
      });
      f = added;
    }
    return f;
  }

  /** The file's earliest timestamp (a tie-break of dedup), undone with its write. */
  setFirstTs(f: FileInfo, ts: number | null): void {
    const was = f.firstTs;
    f.firstTs = ts;
    this.undo.push(() => {
      f.firstTs = was;
    });
  }

  private remember(f: FileInfo): void {
    this.files.set(f.path, f);
    this.filesById.set(f.id, f);
  }
}
