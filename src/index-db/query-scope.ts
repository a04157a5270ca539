// A query's filter, on its own so the query modules that refine it (queries/spans.ts) need not import the index's
// whole interface (types.ts imports the report types, whose folds take the refined scope: a circle).
import type { RangeInfo } from '../shared/api-types.ts';

/** Query filter: the resolved range plus an optional project (encoded folder name) and repository (both: their intersection). */
export interface QueryScope {
  range: RangeInfo;
  project: string | null;
  /** A repository's main checkout path: its folders (decisions.md "Repository"). */
  repository?: string | null;
  /** Absent: every machine; null: this machine (the unlabelled dirs); else a --dir label (decisions.md "Several machines"). */
  machine?: string | null;
  /** "now" for today/active-block decisions (epoch ms); injectable for tests. */
  now: number;
}
