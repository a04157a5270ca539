// Where the tests find the repository, the built server and the shared fixtures.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built server and command line (`npm run build`). */
export const DIST_MAIN = path.join(ROOT, 'dist/main.js');
/** The installed executable (package.json "bin"): the statusline's CommonJS entry, dist/main.js for the rest. */
export const DIST_BIN = path.join(ROOT, 'dist/cost-dashboard.cjs');
export const SHARED = path.resolve(ROOT, '../shared');
export const FIXTURES = path.join(SHARED, 'fixtures');
/** A config dir of real Claude Code transcripts. */
export const FIXTURE_CONFIG_DIR = path.join(FIXTURES, 'transcripts/config');
/** A LiteLLM catalogue snapshot. */
export const PRICES_FILE = path.join(FIXTURES, 'prices/catalogue.json');
/** A stand-in `claude` CLI speaking stream-json (test/fixtures/fake-claude). */
export const FAKE_CLAUDE = path.join(ROOT, 'test/fixtures/fake-claude/claude');
/** The hand-made history of the cost-by-cause tests (issue 32): skills, MCP servers and tools, agent types, efforts. */
export const CAUSES_PROJECTS = path.join(ROOT, 'test/fixtures/causes/projects');
