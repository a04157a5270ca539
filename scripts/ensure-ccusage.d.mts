export const CCUSAGE_VERSION: string;
/** Installs ccusage into .cache/ccusage when needed; returns its binary path, throws when it cannot be installed. */
export function ensureCcusage(): string;
