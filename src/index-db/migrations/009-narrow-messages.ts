// Migration 009: narrower message rows (issue 17's bound on the index's size per GiB of transcripts).
// - An API response's dedup key 'rmsg_01<a> req_011C<b>' (the largest part of a row) is stored as 'R<a> <b>' in
//   `stored_key`, any other key whole (every key the writer makes starts with 'r', 'm' or 'f': the upper-case 'R'
//   marks the packed form); `key` becomes a virtual column giving the same text back, so the readers and the writer's
//   collision check compare what they always did. The writer packs keys the same way (key-packing.ts).
// - One index on (file_id, ts) replaces messages_file (file_id) and messages_ts (ts): a file's rows are its prefix,
//   and the messages of a time span are found through the files of the sessions the hourly rollup has in its hours
//   (queries/span-files.ts), so the index by time alone (large, and written in random order) goes.
// In place: the rows shrink where they are and the dropped indexes' pages are reused, so the file does not grow; the
// space the rows gave up comes back to the disk only with a VACUUM, which nothing needs.
const PACK = `'R' || substr(stored_key, 8, instr(stored_key, ' ') - 8) || ' ' || substr(stored_key, instr(stored_key, ' ') + 9)`;
const PACKABLE = `substr(stored_key, 1, 7) = 'rmsg_01' AND substr(stored_key, instr(stored_key, ' '), 9) = ' req_011C'
  AND instr(substr(stored_key, instr(stored_key, ' ') + 1), ' ') = 0`;
const UNPACK = `CASE WHEN substr(stored_key, 1, 1) = 'R' THEN 'rmsg_01' || replace(substr(stored_key, 2), ' ', ' req_011C') ELSE stored_key END`;

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
