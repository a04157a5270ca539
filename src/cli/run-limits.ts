// `cost-dashboard limits`: the plan limit windows, their pace and forecast, and the hits. As the writer it first takes
// in the statusline's readings and the transcripts' new lines (their hits); a running server keeps both itself.
import { openIndexReader } from '../index-db/index.ts';
import type { CliArgs } from './args.ts';
import { markUpdated } from './background-update.ts';
import { catchUp } from './catch-up.ts';
import { pinHostZone } from './host-zone.ts';
import { limitsJson, limitsTable } from './limits-output.ts';
import { openForCommand } from './open-index.ts';
import { pricesFor } from './prices.ts';
import { terminalWidth } from './table.ts';

export async function runLimits(args: CliArgs, warn: (msg: string) => void): Promise<number> {
  pinHostZone(process.env);
  const opened = await openForCommand(args.config.indexPath, { log: warn, readerWaitMs: 10_000, openReader: openIndexReader });
  try {
    if (opened.kind === 'writer') {
      markUpdated(args.config.indexPath);
      await catchUp({
        index: opened.index, indexFile: args.config.indexPath, projectsDirs: args.config.projectsDirs, machines: args.config.dirMachines, log: warn,
        prices: () => pricesFor(args.config, warn),
      });
    }
    if (args.timezone) process.env.TZ = args.timezone;
    const now = Date.now();
    const data = opened.index.queries.limits(now);
    process.stdout.write(args.json ? `${JSON.stringify(limitsJson(data), null, 2)}\n` : limitsTable(data, terminalWidth(process.stdout, process.env), now));
    return 0;
  } finally {
    opened.index.close();
  }
}
