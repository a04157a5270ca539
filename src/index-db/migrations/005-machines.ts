// Schema v5: machines (decisions.md "Several machines"). A project folder is kept per machine, so every rollup keyed by
// project_id is per machine as it stands; the API merges the rows of one folder name. machine_id NULL: the machine of
// the unlabelled dirs (this one, named by --machine at query time, so renaming it relabels nothing in the file).
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS machines (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

-- The folder name is unique per machine, no longer alone: the table is rebuilt without its UNIQUE (encoded).
CREATE TABLE projects_v5 (
  id         INTEGER PRIMARY KEY,
  encoded    TEXT NOT NULL,
  cwd        TEXT,
  cwd_ts     INTEGER,
  repo       TEXT,
  machine_id INTEGER
);
INSERT INTO projects_v5 (id, encoded, cwd, cwd_ts, repo) SELECT id, encoded, cwd, cwd_ts, repo FROM projects;
DROP TABLE projects;
ALTER TABLE projects_v5 RENAME TO projects;
CREATE UNIQUE INDEX projects_key ON projects (encoded, coalesce(machine_id, 0));
`;
