// The command line's stderr: one line per problem, whatever the message holds (a JSON error quotes the bad input).
export const warn = (msg: string): void => void process.stderr.write(`cost-dashboard: ${msg.replace(/\s*\n\s*/g, ' ')}\n`);
