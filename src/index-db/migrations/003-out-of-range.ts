// Schema v3: per-file count of usage lines skipped because a number in them is outside what a real request can
// carry (src/workers/extract.ts LIMITS).
export const sql = `
ALTER TABLE files ADD COLUMN out_of_range INTEGER NOT NULL DEFAULT 0;
`;
