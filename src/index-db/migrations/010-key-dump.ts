// Migration 010: the token of the saved key index (`<index>.keys`, key-dump.ts). A writer clears it in the
// transaction that removes or moves a stored key, so the file is trusted only while it holds every key up to its
// largest id. Writers before this version do not clear it: the new schema version keeps them from opening the file.
export const sql = /* sql */ `
INSERT OR IGNORE INTO meta (key, value) VALUES ('key_dump', '');
`;
