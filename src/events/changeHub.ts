import pg from 'pg';
import type { Logger } from '../logger';
import { CHANGE_CHANNEL } from '../db/payments';
import { KEY_REVOKED_CHANNEL } from '../db/accountsRepo';

/**
 * Long-poll fan-out: ONE listening connection per process (LISTEN payment_changed), waiters kept in
 * memory by payment id. A thousand clients waiting on unchanged payments cost no queries; a change
 * committed by any process of the service wakes the waiters of that payment everywhere.
 */
export class ChangeHub {
  private client: pg.Client | null = null;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly reads = new Map<string, Promise<unknown>>();
  private readonly revocationListeners: ((keyId: string | null) => void)[] = [];
  private readonly changeListeners: (() => void)[] = [];
  private closed = false;
  /** Live subscriptions, counted as they come and go (a scrape must not walk the waiter sets). */
  private subscribed = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'paygate-listen' });
    client.on('notification', (m) => {
      if (!m.payload) return;
      if (m.channel === KEY_REVOKED_CHANNEL) for (const f of this.revocationListeners) f(m.payload);
      else {
        this.wake(m.payload);
        for (const f of this.changeListeners) f();
      }
    });
    let lost = false;
    const onLost = (reason: string) => {
      if (lost) return; // an error is followed by its end
      lost = true;
      if (this.client === client) this.client = null;
      if (this.closed) return;
      this.log.warn({ err: reason }, 'change listener lost its connection; reconnecting');
      this.wakeAll(); // nobody may miss a change while we were deaf: everyone re-reads
      for (const f of this.revocationListeners) f(null); // nor a revocation: caches start over
      this.scheduleReconnect();
    };
    client.on('error', (err) => onLost(err.message));
    client.on('end', () => onLost('the connection ended'));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      await client.query(`LISTEN ${KEY_REVOKED_CHANNEL}`);
    } catch (e) {
      lost = true;
      await client.end().catch(() => undefined);
      throw e;
    }
    if (lost) throw new Error('the listening connection was lost as it started');
    this.client = client;
    // Revocations made while no connection listened were announced to nobody: caches start over once more.
    for (const f of this.revocationListeners) f(null);
  }

  /** True while the LISTEN connection is up: revocation notices reach this process. */
  get listening(): boolean {
    return this.client !== null;
  }

  private scheduleReconnect() {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.start().catch(() => this.scheduleReconnect());
    }, 1000);
    this.reconnectTimer.unref();
  }

  /** Called with a revoked key id, or null when revocations may have been missed (reconnect). */
  onKeyRevoked(f: (keyId: string | null) => void): void {
    this.revocationListeners.push(f);
  }

  /** Called on every payment change notification (the webhook dispatcher wakes on it). */
  onPaymentChanged(f: () => void): void {
    this.changeListeners.push(f);
  }

  /** Number of requests currently waiting (for metrics and benchmarks). */
  get waiting(): number {
    return this.subscribed;
  }

  /**
   * Registers interest in a payment before the caller reads it (so no change can slip between the read
   * and the wait). `wait(ms)` resolves true when the payment changed, false on timeout; always call
   * `cancel()` when done.
   */
  subscribe(paymentId: string) {
    let fired = false;
    let resolveWait: ((changed: boolean) => void) | null = null;
    const onChange = () => {
      fired = true;
      resolveWait?.(true);
    };
    let set = this.waiters.get(paymentId);
    if (!set) this.waiters.set(paymentId, (set = new Set()));
    set.add(onChange);
    this.subscribed++;
    let timer: NodeJS.Timeout | null = null;
    let cancelled = false;
    const cancel = () => {
      if (timer) clearTimeout(timer);
      if (cancelled) return;
      cancelled = true;
      this.subscribed--;
      const s = this.waiters.get(paymentId);
      if (s) {
        s.delete(onChange);
        if (!s.size) this.waiters.delete(paymentId);
      }
    };
    const wait = (ms: number) =>
      new Promise<boolean>((resolve) => {
        if (fired || this.closed) return resolve(fired);
        resolveWait = resolve;
        timer = setTimeout(() => resolve(false), Math.max(0, ms));
      });
    return { wait, cancel };
  }

  /**
   * Single-flight read: concurrent readers of one payment share one query, so waking thousands of
   * waiters costs one read, not thousands. A change notification drops the shared read in flight, so
   * nobody woken by a change can be handed data read before it.
   */
  read<T>(paymentId: string, fn: () => Promise<T>): Promise<T> {
    const inflight = this.reads.get(paymentId) as Promise<T> | undefined;
    if (inflight) return inflight;
    const p = fn().finally(() => {
      if (this.reads.get(paymentId) === p) this.reads.delete(paymentId);
    });
    this.reads.set(paymentId, p);
    return p;
  }

  private wake(paymentId: string) {
    this.reads.delete(paymentId);
    const set = this.waiters.get(paymentId);
    if (set) for (const f of [...set]) f();
  }

  private wakeAll() {
    for (const set of this.waiters.values()) for (const f of [...set]) f();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.wakeAll();
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }
}
