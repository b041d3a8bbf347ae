import type { Config } from './config';
import { anvilOwnership } from './chain/anvil';
import { anvilOf } from './chain/chains';
import { embeddedOwnership } from './db/embedded';
import { assertBindable } from './lib/ports';

/**
 * Before a service starts anything: every port it will use is free or held by what is this checkout's own (its
 * embedded PostgreSQL's data folder, its development chains' state folder), else PortTaken names the port, who
 * holds it and the setting that moves it, and nothing was started (docs/operations.md, "Ports").
 */
export async function assertPortsOwned(config: Config): Promise<void> {
  if (!config.databaseUrl) await embeddedOwnership(config.embeddedDataDir, config.embeddedPort);
  const d = config.devnet;
  for (const dc of d?.chains ?? []) if (!dc.rpcUrl) await anvilOwnership(anvilOf(d!, dc));
  await assertBindable(config.host, config.port, 'PORT');
}
