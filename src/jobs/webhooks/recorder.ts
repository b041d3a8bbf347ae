import type { Db } from '../../db/knex';
import * as repo from '../../db/webhooks';
import type { WebhookDelivery } from '../../domain/webhook';

// Successful attempts are recorded together: an attempt that ends while earlier ones are being written waits
// for that write and goes into the next, with every other that ended meanwhile: one statement and one commit
// (a flush of the WAL) for all of them. An attempt that ends when nothing is being written is written at once,
// so an idle pipeline adds no wait. A failed write fails every attempt of its batch: each is then rescued
// like an attempt whose record failed on its own (its lease runs out, and it is claimed and sent again).

type Record = (delivery: WebhookDelivery, outcome: repo.AttemptOutcome) => Promise<void>;

export function successRecorder(db: Db, { maxBatch = 200, writers = 1 } = {}): Record {
  let queue: { done: { delivery: WebhookDelivery; outcome: repo.AttemptOutcome }; resolve: () => void; reject: (e: unknown) => void }[] =
    [];
  let writing = 0;
  const flush = () => {
    while (writing < writers && queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      writing++;
      repo
        .recordSuccesses(
          db,
          batch.map((b) => b.done),
        )
        .then(
          () => batch.forEach((b) => b.resolve()),
          (e) => batch.forEach((b) => b.reject(e)),
        )
        .finally(() => {
          writing--;
          flush();
        });
    }
  };
  return (delivery, outcome) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ done: { delivery, outcome }, resolve, reject });
      flush();
    });
}
