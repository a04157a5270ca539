// The stored form of a dedup key (migration 009): an API response's key 'rmsg_01<a> req_011C<b>' is kept as
// 'R<a> <b>' (15 bytes less a row), any other key whole; the table's virtual `key` column gives the text back. The
// writer's keys all start with a lower-case letter ('r', 'm', 'f'), so an upper-case 'R' marks the packed form.
// Must pack exactly as the migration's SQL does (test/index-db/narrow-messages.test.ts checks both).
const MSG = 'rmsg_01';
const REQ = ' req_011C';

/** The value of `stored_key` for a key. */
export function packKey(key: string): string {
  if (!key.startsWith(MSG)) return key;
  const space = key.indexOf(' ', MSG.length);
  if (space < 0 || !key.startsWith(REQ, space) || key.includes(' ', space + 1)) return key;
  return `R${key.slice(MSG.length, space)} ${key.slice(space + REQ.length)}`;
}
