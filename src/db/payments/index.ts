// Payments and their outbox. Every change of a payment bumps its version and writes one payment_events
// row with its payment_event_outbox row (the webhook dispatcher's queue) in the same statement, then NOTIFYs
// `payment_changed` (delivered on commit) so that long-polls in every process wake up. Events are written with
// dispatched_at set: only events of the release before the outbox wait with it NULL (migration 20261201090000).
// One file per part: rows.ts (columns, row mapping, shared SQL), reads.ts, pool.ts (batching on the pool),
// creation.ts, changes.ts (transitions and their events), lists.ts (lists, stats and counts).

export * from './rows';
export * from './reads';
export * from './creation';
export * from './changes';
export * from './lists';
