import type PgBoss from 'pg-boss';
import type { WebhookConfig } from '../../config';
import type { WebhookDeliveryRef } from '../../domain/webhook';

export const QUEUE = 'webhook-deliver';
export const BATCH = 50;
export interface JobData {
  deliveryId: string;
  endpointId?: string;
  /** Absent in jobs queued before the caps existed: those are claimed one by one. */
  accountId?: string;
}

export interface WebhookWork {
  /** Hands deliveries created by a request (redelivery) to the workers. */
  enqueue(deliveries: WebhookDeliveryRef[]): Promise<void>;
  /**
   * A request committed new events without a change notification (payment creation): this process's
   * dispatcher fans them out now rather than on its next tick. Where this process runs no workers (ROLE=api),
   * the workers' timer finds them.
   */
  eventsWritten(): void;
}

export interface WebhookJobs extends WebhookWork {
  stop(): Promise<void>;
}
/** The delivery queue (created if missing) and how deliveries reach it: what a process that only serves the API (ROLE=api) uses. */
export async function webhookQueue(boss: PgBoss, cfg: WebhookConfig): Promise<WebhookWork> {
  const leaseMs = cfg.timeoutMs + cfg.leaseMarginMs;
  await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 0, expireInSeconds: Math.ceil(leaseMs / 1000) + 30 });
  return {
    enqueue: async (deliveries) => {
      if (deliveries.length === 0) return;
      await boss.insert(
        deliveries.map((d) => ({
          name: QUEUE,
          data: { deliveryId: d.id, endpointId: d.endpointId, accountId: d.accountId } satisfies JobData,
        })),
      );
    },
    eventsWritten: () => undefined,
  };
}
