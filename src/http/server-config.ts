// The fields of the configuration the server reads. src/config's Config has all of them and is passed as it is; the
// HTTP layer declares what it needs instead of importing Config from a layer above it.
import type { HubConfig } from './hub.ts';

export interface ServerConfig extends HubConfig {
  host: string;
  port: number;
  /** Lower-cased host names accepted in the Host header besides loopback names. */
  allowedHosts: string[];
  /** This machine's label: the name of what the unlabelled dirs hold. */
  machine: string;
  /** The config dirs read (the overview's `dirs`). */
  dirs: string[];
  /** Bearer token /metrics requires; null = none. */
  metricsToken: string | null;
}
