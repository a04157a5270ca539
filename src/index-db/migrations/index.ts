// Every schema migration in order; migration i brings user_version from i to i + 1.
import { sql as init } from './001-init.ts';
import { sql as history } from './002-history.ts';

export const migrations: readonly string[] = [init, history];
