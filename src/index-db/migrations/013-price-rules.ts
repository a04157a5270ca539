// Schema v13: what the price rules of issue 32 need kept per usage entry, so that a catalogue change reprices it exactly
// (decisions.md "What counts, and what it costs"): `geo` (1: `usage.inference_geo` "us", US-only inference, the cost
// x 1.1) and `advisor` (1: the row is an advisor iteration of its response, priced under its own model) on every stored
// copy, and the web fetch requests (`server_tool_use.web_fetch_requests`: counted, never priced) as a token kind of
// the copies and of every rollup that sums the usage. Rows indexed before v13 hold 0 of each: re-reading them under the
// new rules is the user's choice (a new index). `messages_fast` finds a range's fast rows of a model without reading
// the others (few rows are fast): the overview lists the models whose fast multiplier is an estimate.
const WITH_USAGE = ['messages', 'alternates', 'usage_hourly', 'usage_hourly_model', 'usage_daily', 'usage_daily_all', 'usage_total'];

export const sql = /* sql */ `
ALTER TABLE messages ADD COLUMN geo INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN advisor INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alternates ADD COLUMN geo INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alternates ADD COLUMN advisor INTEGER NOT NULL DEFAULT 0;
${WITH_USAGE.map((t) => `ALTER TABLE ${t} ADD COLUMN web_fetch INTEGER NOT NULL DEFAULT 0;`).join('\n')}
CREATE INDEX messages_fast ON messages (model_id, ts) WHERE fast = 1;
`;
