import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from './db/knex';
import { countPaymentsByStatus, waitingForStatements } from './db/payments';
import type { Logger } from './logger';
import type { ChangeHub } from './events/changeHub';
import { PAYMENT_STATUSES } from './domain/payment';

// Prometheus metrics of one service instance. Each instance has its own Registry (never prom-client's
// global one), so several services in one process (the tests) do not clash. Request metrics are labelled by
// operationId or a fixed route name, never by the raw path: paths carry ids, and a label per id would grow
// without bound. Gauges read from PostgreSQL are computed on scrape and cached, so frequent scrapes (or
// several scrapers) cost at most one query per cache period.

export interface MetricsSources {
  db: Db;
  hub: ChangeHub;
  log: Logger;
  /** How long a value read from the database is reused by later scrapes. */
  dbCacheMs: number;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]; // long-polls hold up to 30 s

type Labels = 'operation' | 'method' | 'status';

export class Metrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly requests: Counter<Labels>;
  private readonly duration: Histogram<Labels>;
  // Label children by "operation method status": the hot path does one Map lookup, not a label hash.
  private readonly children = new Map<string, { count: Counter.Internal; time: Histogram.Internal<Labels> }>();

  constructor(private readonly src: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'paygate_http_requests_total',
      help: 'HTTP requests answered, by operationId (or route name), method and status.',
      labelNames: ['operation', 'method', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'paygate_http_request_duration_seconds',
      help: 'Time from request to response, by operationId (or route name), method and status.',
      labelNames: ['operation', 'method', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const hub = src.hub;
    new Gauge({
      name: 'paygate_longpoll_waiters',
      help: 'Status long-polls currently waiting in this process.',
      registers,
      collect() {
        this.set(hub.waiting);
      },
    });
    const db = src.db;
    new Gauge({
      name: 'paygate_payment_creations_waiting',
      help: 'Payment creations in this process waiting for the statements of creation under way to end (they go together in the next one).',
      registers,
      collect() {
        this.set(waitingForStatements(db).creations);
      },
    });
    new Gauge({
      name: 'paygate_payment_reads_waiting',
      help: 'Reads of a payment by id in this process waiting for the reads under way to end (they go together in the next one).',
      registers,
      collect() {
        this.set(waitingForStatements(db).reads);
      },
    });
    const counts = this.cached('paygate_payments', () => countPaymentsByStatus(src.db));
    new Gauge({
      name: 'paygate_payments',
      help: 'Payments by status (a requires_action payment past its expiry counts as expired).',
      labelNames: ['status'],
      registers,
      async collect() {
        const byStatus = await counts();
        this.reset(); // a failed read exports nothing rather than stale numbers
        if (byStatus) for (const s of PAYMENT_STATUSES) this.set({ status: s }, byStatus[s] ?? 0);
      },
    });
  }

  /** Records one answered request; `operation` must come from a fixed set (operationIds, route names). */
  observe(operation: string, method: string, status: number, seconds: number): void {
    const key = `${operation} ${method} ${status}`;
    let child = this.children.get(key);
    if (!child) {
      const labels = { operation, method, status: String(status) };
      child = { count: this.requests.labels(labels), time: this.duration.labels(labels) };
      this.children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  }

  /**
   * Adds a gauge computed on scrape (e.g. a `SELECT count(*)`), cached like the payment counts. A failing
   * read leaves the gauge out of that scrape and is logged; it never fails the scrape.
   */
  addCollector(name: string, help: string, read: () => Promise<number>): void {
    const value = this.cached(name, read);
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        const v = await value();
        this.reset();
        if (v !== undefined) this.set(v);
      },
    });
  }

  /** The text exposition of every metric of this instance. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** Single-flight and cached for `ms` (dbCacheMs by default); undefined when the read failed (logged, retried next). */
  cached<T>(name: string, read: () => Promise<T>, ms = this.src.dbCacheMs): () => Promise<T | undefined> {
    let at = -Infinity;
    let last: Promise<T | undefined> | null = null;
    return () => {
      const now = Date.now();
      if (last && now - at < ms) return last;
      at = now;
      last = read().catch((e) => {
        this.src.log.warn({ metric: name, err: (e as Error).message }, 'metric read failed');
        at = -Infinity; // retry on the next scrape
        return undefined;
      });
      return last;
    };
  }
}
