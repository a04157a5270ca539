// Migration 009: narrower message rows (issue 17: index <= 32 MB per GiB; it was 36.2).
// - An API response's dedup key 'rmsg_01<a> req_011C<b>' (58 of a row's 134 bytes) is stored as the blob '<a> <b>' in
//   `stored_key`, any other key whole, as text (a column of TEXT affinity keeps a blob a blob: the type tells them
//   apart); `key` becomes a virtual column giving the same text back, so the readers and the writer's collision check
//   compare what they always did. The writer packs keys the same way (key-packing.ts).
// - One index on (file_id, ts) replaces messages_file (file_id) and messages_ts (ts): a file's rows are its prefix,
//   and the messages of a time span are found through the files of the sessions the hourly rollup has in its hours
//   (queries/span-files.ts), so the index by time alone (3.5 MB per GiB, written in random order) goes.
// In place: the rows shrink where they are and the dropped index's pages are reused, so the file does not grow; the
// space the rows gave up comes back to the disk only with a VACUUM, which nothing needs.
const PACK = `CAST(substr(stored_key, 8, instr(stored_key, ' ') - 8) || ' ' || substr(stored_key, instr(stored_key, ' ') + 9) AS BLOB)`;
const PACKABLE = `substr(stored_key, 1, 7) = 'rmsg_01' AND substr(stored_key, instr(stored_key, ' '), 9) = ' req_011C'
  AND instr(substr(stored_key, instr(stored_key, ' ') + 1), ' ') = 0`;
const UNPACK = `CASE typeof(stored_key) WHEN 'blob' THEN 'rmsg_01' || replace(CAST(stored_key AS TEXT), ' ', ' req_011C') ELSE stored_key END`;

const narrowKey = (table: string): string => /* sql */ `
ALTER TABLE ${table} RENAME COLUMN key TO stored_key;
UPDATE ${table} SET stored_key = ${PACK} WHERE ${PACKABLE};
ALTER TABLE ${table} ADD COLUMN key TEXT GENERATED ALWAYS AS (${UNPACK}) VIRTUAL;
`;

export const sql = /* sql */ `
${narrowKey('messages')}
${narrowKey('alternates')}
DROP INDEX messages_ts;
DROP INDEX messages_file;
-- A file's rows (reset; a session's rows through files_session) and, file by file, the rows of a time span.
CREATE INDEX messages_file_ts ON messages (file_id, ts);
`;
