// The measures the rollups sum, in one list: what a rollup row holds besides its keys. Pure data: the rollup
// statements (rollup-sql.ts), the writer's cells (../rollup.ts) and the reads (../queries) are made from it.
import type { UsageCounts } from '../../workers/protocol.ts';

/**
 * How a measure combines: 'count' adds one per message (or tool use), 'sum' adds a message column, 'first'/'last'
 * keep the earliest/latest message time.
 */
export type Combine = 'count' | 'sum' | 'first' | 'last';

export interface Measure {
  /** The rollup column. */
  readonly column: string;
  /** Its name on a writer's cell (and, for a token kind, on `UsageCounts`). */
  readonly field: string;
  readonly combine: Combine;
  /** The SQLite column type. */
  readonly type: 'INTEGER' | 'REAL';
  /** Whether a row may hold NULL (a cell whose messages all moved out keeps no times). */
  readonly nullable: boolean;
}

/** A token kind: a column of `messages` and a field of `UsageCounts`, summed by every usage rollup. */
export interface TokenKind extends Measure {
  readonly field: keyof UsageCounts;
  /** Whether it counts towards a total of tokens (cache_1h is part of cache_create; web_search and web_fetch count requests). */
  readonly inTotal: boolean;
}

const token = <F extends keyof UsageCounts, T extends boolean>(column: string, field: F, inTotal: T) =>
  ({ column, field, combine: 'sum', type: 'INTEGER', nullable: false, inTotal }) as const satisfies TokenKind;

/** The token kinds, in the order of the rollup columns. */
export const TOKEN_KINDS = [
  token('input', 'input', true),
  token('output', 'output', true),
  token('cache_create', 'cacheCreate', true),
  token('cache_read', 'cacheRead', true),
  token('cache_1h', 'cache1h', false),
  token('web_search', 'webSearch', false),
  token('web_fetch', 'webFetch', false),
] as const satisfies readonly TokenKind[];

/** Every field of `UsageCounts` is a token kind above (a kind added to the protocol and not here fails to compile). */
type Missing = Exclude<keyof UsageCounts, (typeof TOKEN_KINDS)[number]['field']>;
const everyKind: [Missing] extends [never] ? true : Missing = true;
void everyKind;

export const MESSAGES: Measure = { column: 'messages', field: 'n', combine: 'count', type: 'INTEGER', nullable: false };
export const COST: Measure = { column: 'cost', field: 'cost', combine: 'sum', type: 'REAL', nullable: false };
export const FIRST_TS: Measure = { column: 'first_ts', field: 'first', combine: 'first', type: 'INTEGER', nullable: true };
export const LAST_TS: Measure = { column: 'last_ts', field: 'last', combine: 'last', type: 'INTEGER', nullable: true };
/** Uses of a tool (the tool rollups' one measure). */
export const USES: Measure = { column: 'count', field: 'n', combine: 'count', type: 'INTEGER', nullable: false };

/** Every measure, in the order of the rollup columns (a rollup holds a subset, in this order). */
export const MEASURES: readonly Measure[] = [MESSAGES, ...TOKEN_KINDS, COST, FIRST_TS, LAST_TS, USES];

/** The fields of the token kinds that a total of tokens adds up. */
export type TotalField = Extract<(typeof TOKEN_KINDS)[number], { inTotal: true }>['field'];
type TotalKind = TokenKind & { field: TotalField };

/** The token kinds that a total of tokens adds up. */
export const TOTAL_KINDS: readonly TotalKind[] = TOKEN_KINDS.filter((k): k is (typeof TOKEN_KINDS)[number] & TotalKind => k.inTotal);

/** A total of tokens of a message, a cell or a group: the kinds `inTotal` says. */
export function totalTokens(u: Pick<UsageCounts, TotalField>): number {
  let n = 0;
  for (const k of TOTAL_KINDS) n += u[k.field];
  return n;
}

/** The same of a row read by position, `cols` giving each kind's column. */
export function totalOfRow(r: readonly number[], cols: Readonly<Record<TotalField, number>>): number {
  let n = 0;
  for (const k of TOTAL_KINDS) n += r[cols[k.field]]!;
  return n;
}

/** The same in SQL, over the columns of a rollup or of `messages` (`sum(...)` it for a range). */
export const TOTAL_TOKENS_SQL = TOTAL_KINDS.map((k) => k.column).join(' + ');
