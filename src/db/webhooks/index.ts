// Webhook endpoints, the fan-out of payment events into deliveries, and the attempts of each delivery.
// Every multi-row change is one statement or one transaction, and every claim is conditional, so any
// number of processes may dispatch and deliver at once.
// One file per part: rows.ts (rows to domain types), endpoints.ts, events.ts (events and their deliveries'
// history), fanout.ts (events into deliveries), claims.ts (leases on due deliveries), attempts.ts (their outcomes).

export * from './rows';
export * from './endpoints';
export * from './events';
export * from './fanout';
export * from './claims';
export * from './attempts';
export * from './hostedFacts';
