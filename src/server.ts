import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { Config } from './config';
import type { Logger } from './logger';
import { createApp } from './http/app';
import { createBackends } from './http/backends';
import { handlers } from '../handlers';

export interface RunningServer {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

/** Listens with the given database (already migrated). Used by main and by the integration tests. */
export async function startServer(config: Config, db: Knex, log: Logger): Promise<RunningServer> {
  const backends = await createBackends();
  const app = createApp({ config, db, log, backends, handlers });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
