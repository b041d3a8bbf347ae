import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from './db/knex';
import { runsWorkers, servesApi, type Config } from './config';
import type { Logger } from './logger';
import { createApp, createWorkerApp } from './http/app';
import { createBackends, createHostedBackend } from './http/backends';
import { ChangeHub } from './events/changeHub';
import { startSchedule } from './jobs/schedule';
import { handlers } from '../handlers';
import { startChains } from './chain/chains';
import { ConcurrencyCap, SharedRateLimiter } from './http/rateLimit';
import { startChainJobs } from './jobs/chainJobs';
import { startQueue } from './jobs/queue';
import { webhookQueue, type WebhookJobs } from './jobs/webhooks/queue';
import { startWebhookJobs } from './jobs/webhooks/workers';
import { Metrics } from './metrics';
import { pendingDeliveryCount } from './db/webhooks';
import { addChainMetrics } from './chain/chainMetrics';
import { addOperatorMetrics } from './operatorMetrics';
import { describeHolder, PortTaken } from './lib/ports';

export interface RunningServer {
  url: string;
  server: http.Server;
  hub: ChangeHub;
  /** This instance's metrics: `metrics.addCollector(...)` adds gauges computed on scrape. */
  metrics: Metrics;
  close(): Promise<void>;
}

/**
 * Listens with the given database (already migrated); `dbUrl` is used for the one LISTEN connection.
 * Used by main and by the integration tests. Stateless: run as many processes as needed on one database.
 */
export async function startServer(config: Config, db: Db, dbUrl: string, log: Logger): Promise<RunningServer> {
  // ROLE: `api` serves and enqueues, `worker` works the queues (and answers only health, readiness and
  // metrics), `all` does both. Either kind scales out on its own, over the same database and queues.
  const serving = servesApi(config.role);
  const working = runsWorkers(config.role);
  const hub = new ChangeHub(dbUrl, log);
  await hub.start();
  const boss = await startQueue(dbUrl, log, { supervise: working });
  const chains = await startChains(config, db, log);
  const metrics = new Metrics({ db, hub, log, dbCacheMs: config.metricsDbCacheMs });
  const chainJobs = await startChainJobs(
    boss,
    db,
    chains.chains,
    {
      pollIntervalMs: config.chainPollIntervalMs,
      stuckAfterMs: config.chainStuckAfterMs,
      strandedAfterMs: config.chainStrandedAfterMs,
      settlementRetry: config.settlementRetry,
      scheduleUnitMs: config.settlementScheduleUnitMs,
      submitRetry: config.submitRetry,
      maxFeeBumps: config.chainMaxFeeBumps,
      fundingMaxPayments: config.refunds.fundingMaxPayments,
      refundReserve: config.refundReserve,
      workers: working,
      contractWallets: config.contractWallets,
    },
    log,
    metrics.registry,
  );
  const webhookJobs: WebhookJobs = working
    ? await startWebhookJobs(boss, db, config.webhooks, config.dataEncryptionKey, hub, log)
    : { ...(await webhookQueue(boss, config.webhooks)), stop: async () => undefined };
  const limiter = new SharedRateLimiter(db, log, metrics.registry);
  if (serving) limiter.start();
  const limits = { limiter, longPolls: new ConcurrencyCap() };
  // What runs on a clock (expiry, rescues, scheduled settlements, purges): src/jobs/schedule.ts.
  const schedule = working ? startSchedule({ db, log, config, chainJobs, limiter }) : null;
  addChainMetrics(metrics, db, chains.chains, log, config.metricsDbCacheMs);
  metrics.addCollector('paygate_webhook_delivery_backlog', 'Webhook deliveries waiting for their next attempt (status pending).', () =>
    pendingDeliveryCount(db),
  );
  addOperatorMetrics(metrics, {
    db,
    chains: chains.chains,
    longPolls: limits.longPolls,
    dbCacheMs: config.metricsDbCacheMs,
    ledgerCheckMs: config.metricsLedgerCheckMs,
    stuckAfterMs: config.chainStuckAfterMs,
  });
  let draining = false;
  let closing: Promise<void> | null = null; // close() twice waits for the same shutdown
  const app = serving
    ? createApp({
        config,
        db,
        log,
        backends: await createBackends(config.precompileValidators),
        hostedBackend: await createHostedBackend(config.precompileValidators),
        handlers,
        hub,
        chainWork: chainJobs,
        metrics,
        draining: () => draining,
        webhookWork: webhookJobs,
        limits,
      })
    : createWorkerApp({ config, db, log, metrics, draining: () => draining });
  // Gateway ids may be URL-encoded buyer links: allow request lines longer than Node's 16 KiB default.
  const server = http.createServer({ maxHeaderSize: 32 * 1024 }, app.callback());
  // In-flight requests, so that shutdown can let them finish before the database goes away.
  let inflight = 0;
  let drained: (() => void) | null = null;
  server.on('request', (_req, res) => {
    inflight++;
    res.once('close', () => {
      inflight--;
      if (inflight === 0) drained?.();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 120_000;
  // Everything behind the listener, stopped in order once requests are done (or when the port cannot be had).
  const stopWork = async () => {
    await schedule?.stop(); // waits for a pass in progress
    await limiter.stop();
    await chainJobs.stop(); // lets running jobs finish; queued ones stay for any other process
    await webhookJobs.stop(); // lets attempts in flight finish and record (bounded by the request timeout)
    await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    await chains.stop(); // a development chain started by this process writes its state and exits
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await hub.close();
    await stopWork();
    // One line, as main prints it (src/lib/ports.ts): the port was taken after the start checked it.
    throw (e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new PortTaken('PORT', config.port, describeHolder(config.port)) : e;
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    hub,
    metrics,
    /**
     * Graceful: readiness fails at once (load balancers stop sending); after shutdownDelayMs the listener
     * closes (new connections are refused), waiting long-polls answer the current status now, in-flight
     * requests finish and their keep-alive connections close; then the scheduled tasks and job workers stop.
     * The caller destroys the database pool afterwards.
     */
    close: () =>
      (closing ??= (async () => {
        draining = true;
        if (config.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDelayMs));
        const closed = new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
        server.closeIdleConnections();
        await hub.close(); // wakes every long-poll: each answers the current status
        if (inflight > 0) await new Promise<void>((resolve) => (drained = resolve));
        server.closeIdleConnections();
        await closed;
        await stopWork();
      })()),
  };
}
