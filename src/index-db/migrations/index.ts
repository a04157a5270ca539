// Every schema migration in order; migration i brings user_version from i to i + 1.
import type Database from 'better-sqlite3';
import { sql as init } from './001-init.ts';
import { sql as localDays } from './002-local-days.ts';
import { sql as outOfRange } from './003-out-of-range.ts';
import { sql as history } from './004-history.ts';
import { sql as machines } from './005-machines.ts';
import { sql as settings } from './006-settings.ts';
import { sql as grainRollups } from './007-grain-rollups.ts';
import { sql as filesSession } from './008-files-session.ts';
import { sql as narrowMessages } from './009-narrow-messages.ts';
import { sql as keyDump } from './010-key-dump.ts';
import { sql as limits } from './011-limits.ts';
import { sql as entrypoints } from './012-entrypoints.ts';
import { sql as priceRules } from './013-price-rules.ts';
import { sql as causes } from './014-causes.ts';
import { sql as rootAgentPrompts } from './015-root-agent-prompts.ts';
import { sql as entrypointTotal } from './016-entrypoint-total.ts';
import { sql as sessionIndex } from './017-session-index.ts';
import { sql as fileTotals } from './018-file-totals.ts';
import { sql as sessionsByProject } from './019-sessions-by-project.ts';
import { narrowerKeys } from './020-narrower-keys.ts';
import { sql as branchRollup } from './021-branch-rollup.ts';
import { sql as hourModels } from './022-hour-models.ts';
import { sql as sessionTotals } from './023-session-totals.ts';
import { sql as modelTotals } from './024-model-totals.ts';

/** SQL, or a function for a migration that needs the writer's own code (020 packs and hashes keys as the writer does). */
export type Migration = string | ((db: Database.Database) => void);

export const migrations: readonly Migration[] = [
  init, localDays, outOfRange, history, machines, settings, grainRollups, filesSession, narrowMessages, keyDump, limits,
  entrypoints, priceRules, causes, rootAgentPrompts, entrypointTotal, sessionIndex, fileTotals, sessionsByProject, narrowerKeys,
  branchRollup, hourModels, sessionTotals, modelTotals,
];
