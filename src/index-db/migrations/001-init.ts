// Schema v1. Kept as a string in a .ts module (not a .sql file read at run time) so it
// survives bundling into dist/main.js.
//
// Ids are small integers everywhere so the big tables (messages, alternates, rollups) stay narrow.
// Timestamps are epoch ms UTC; `hour` is floor(ts / 3600000), a UTC hour.
export const sql = /* sql */ `
-- Free-form facts about the index: 'price_fingerprint' (the PriceTable the stored costs used),
-- 'daily_tz' (the time zone usage_daily was built in).
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- One row per encoded project folder. Display name = last segment of cwd (latest by first_ts of
-- the file that reported it), else the encoded name.
CREATE TABLE projects (
  id      INTEGER PRIMARY KEY,
  encoded TEXT NOT NULL UNIQUE,
  cwd     TEXT,
  cwd_ts  INTEGER
);

-- title_kind: 'custom' | 'ai' | NULL. first_prompt only from the session's main transcript.
CREATE TABLE sessions (
  id           INTEGER PRIMARY KEY,
  sid          TEXT NOT NULL UNIQUE,
  project_id   INTEGER NOT NULL,
  title        TEXT,
  title_kind   TEXT,
  first_prompt TEXT,
  cwd          TEXT
);

-- priced = 0 when the current PriceTable matches nothing for the name.
CREATE TABLE models (
  id     INTEGER PRIMARY KEY,
  name   TEXT NOT NULL UNIQUE,
  priced INTEGER NOT NULL
);

-- Subagents of a session (agent = the id from agent-<id>.jsonl or the line's agentId).
CREATE TABLE agents (
  id          INTEGER PRIMARY KEY,
  session_id  INTEGER NOT NULL,
  agent       TEXT NOT NULL,
  type        TEXT,
  description TEXT,
  UNIQUE (session_id, agent)
);

-- One row per transcript: its role, read cursor and line stats. session_id/agent_id from its role.
CREATE TABLE files (
  id          INTEGER PRIMARY KEY,
  path        TEXT NOT NULL UNIQUE,
  project_id  INTEGER,                   -- NULL only for a file known from a read error alone
  session_id  INTEGER,
  agent_id    INTEGER,
  main        INTEGER NOT NULL DEFAULT 0,          -- 1: a session's own transcript (source of its first prompt)
  size        INTEGER NOT NULL DEFAULT 0,
  mtime       REAL NOT NULL DEFAULT 0,
  off         INTEGER NOT NULL DEFAULT 0,
  head        TEXT NOT NULL DEFAULT '',
  first_ts    INTEGER,                   -- earliest timestamp in the file (dedup tie-break)
  gone        INTEGER NOT NULL DEFAULT 0,
  lines       INTEGER NOT NULL DEFAULT 0,
  usage_lines INTEGER NOT NULL DEFAULT 0,
  blank       INTEGER NOT NULL DEFAULT 0,
  malformed   INTEGER NOT NULL DEFAULT 0,
  giant       INTEGER NOT NULL DEFAULT 0,
  error       TEXT                       -- last read error; NULL when readable
);

-- One row per deduped API response (the winning copy). key:
--   'r' || message.id || ' ' || requestId        (global)
--   'm' || session sid || ' ' || message.id       (no requestId: within the session)
--   'f' || file id || ' ' || offset               (neither: each line counts)
-- hkey is a 53-bit hash of key, unique per row; a key whose hash is taken by another key probes
-- hkey + 1, + 2, ... The writer holds hkey -> id in memory (loaded once), so no index on it: a
-- unique index in hash order cost half of the cold index time (random page writes).
-- cost_usd is the line's own costUSD (NULL when absent); cost is what the PriceTable made of it.
CREATE TABLE messages (
  id           INTEGER PRIMARY KEY,
  hkey         INTEGER NOT NULL,
  key          TEXT NOT NULL,
  file_id      INTEGER NOT NULL,
  off          INTEGER NOT NULL,
  ts           INTEGER NOT NULL,
  project_id   INTEGER NOT NULL,
  session_id   INTEGER NOT NULL,
  model_id     INTEGER NOT NULL,
  agent_id     INTEGER,                  -- NULL: main thread
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,         -- 5m + 1h writes
  cache_read   INTEGER NOT NULL,
  cache_1h     INTEGER NOT NULL,
  web_search   INTEGER NOT NULL,
  fast         INTEGER NOT NULL,
  cost_usd     REAL,
  cost         REAL NOT NULL,
  tools        TEXT NOT NULL             -- tool_use names joined by ','
);
-- The only other index: a file's rows (reset) and, through the session's files, a session's rows.
CREATE INDEX messages_file ON messages (file_id);

-- Losing copies from other files than the winner (same columns), promoted when the winner's
-- file is reset. Copies from the winner's own file are not kept: they go away with it.
CREATE TABLE alternates (
  id           INTEGER PRIMARY KEY,
  hkey         INTEGER NOT NULL,         -- the hkey of the stored winner of its key
  key          TEXT NOT NULL,
  file_id      INTEGER NOT NULL,
  off          INTEGER NOT NULL,
  ts           INTEGER NOT NULL,
  project_id   INTEGER NOT NULL,
  session_id   INTEGER NOT NULL,
  model_id     INTEGER NOT NULL,
  agent_id     INTEGER,
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,
  cache_read   INTEGER NOT NULL,
  cache_1h     INTEGER NOT NULL,
  web_search   INTEGER NOT NULL,
  fast         INTEGER NOT NULL,
  cost_usd     REAL,
  cost         REAL NOT NULL,
  tools        TEXT NOT NULL
);
CREATE INDEX alternates_key ON alternates (hkey);
CREATE INDEX alternates_file ON alternates (file_id);

-- Usage per UTC hour x project x session x model x main/subagent (sub = 0/1).
-- first_ts/last_ts: earliest/latest message of the cell (kept as bounds when a copy moves out).
CREATE TABLE usage_hourly (
  hour         INTEGER NOT NULL,
  project_id   INTEGER NOT NULL,
  session_id   INTEGER NOT NULL,
  model_id     INTEGER NOT NULL,
  sub          INTEGER NOT NULL,
  messages     INTEGER NOT NULL,
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,
  cache_read   INTEGER NOT NULL,
  cache_1h     INTEGER NOT NULL,
  web_search   INTEGER NOT NULL,
  cost         REAL NOT NULL,
  first_ts     INTEGER,
  last_ts      INTEGER,
  PRIMARY KEY (hour, project_id, session_id, model_id, sub)
) WITHOUT ROWID;

-- The same without the session: what ranged overview/insights scans (far fewer rows).
CREATE TABLE usage_hourly_model (
  hour         INTEGER NOT NULL,
  project_id   INTEGER NOT NULL,
  model_id     INTEGER NOT NULL,
  sub          INTEGER NOT NULL,
  messages     INTEGER NOT NULL,
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,
  cache_read   INTEGER NOT NULL,
  cache_1h     INTEGER NOT NULL,
  web_search   INTEGER NOT NULL,
  cost         REAL NOT NULL,
  first_ts     INTEGER,
  last_ts      INTEGER,
  PRIMARY KEY (hour, project_id, model_id, sub)
) WITHOUT ROWID;

-- The same per LOCAL day (day number: days from 1970-01-01 to the local date) for day-aligned
-- ranges: a year is ~365 x projects x models rows however busy the hours were. Valid for the time
-- zone in meta 'daily_tz'; rebuilt from messages when the process zone differs (each message on the local day of its
-- own timestamp since schema v2, see 002-local-days.ts).
CREATE TABLE usage_daily (
  day          INTEGER NOT NULL,
  project_id   INTEGER NOT NULL,
  model_id     INTEGER NOT NULL,
  sub          INTEGER NOT NULL,
  messages     INTEGER NOT NULL,
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,
  cache_read   INTEGER NOT NULL,
  cache_1h     INTEGER NOT NULL,
  web_search   INTEGER NOT NULL,
  cost         REAL NOT NULL,
  first_ts     INTEGER,
  last_ts      INTEGER,
  PRIMARY KEY (day, project_id, model_id, sub)
) WITHOUT ROWID;

-- tool_use counts per UTC hour x project x tool name.
CREATE TABLE tools_hourly (
  hour       INTEGER NOT NULL,
  project_id INTEGER NOT NULL,
  tool       TEXT NOT NULL,
  count      INTEGER NOT NULL,
  PRIMARY KEY (hour, project_id, tool)
) WITHOUT ROWID;

-- The same per local day number (rebuilt with usage_daily).
CREATE TABLE tools_daily (
  day        INTEGER NOT NULL,
  project_id INTEGER NOT NULL,
  tool       TEXT NOT NULL,
  count      INTEGER NOT NULL,
  PRIMARY KEY (day, project_id, tool)
) WITHOUT ROWID;
`;
