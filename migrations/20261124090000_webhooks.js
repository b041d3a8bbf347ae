// Why: webhooks (2026-02-19.preview). payment_events is already the outbox, written in the same
// transaction as each change; `dispatched_at` marks the events fanned out into per-endpoint deliveries, so a
// crash between a change and its fan-out loses nothing (the dispatcher takes undispatched rows with SKIP
// LOCKED, inserts their deliveries and marks them in one transaction). A delivery row is the truth about
// one event on its way to one endpoint (the job queue only triggers work), and every HTTP attempt is kept.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('payment_events', (t) => {
    t.timestamp('dispatched_at', { useTz: true, precision: 3 });
  });
  // Events written before webhooks existed have no endpoint to go to.
  await knex.raw('UPDATE payment_events SET dispatched_at = created_at');
  await knex.raw('CREATE INDEX payment_events_undispatched_idx ON payment_events (created_at, id) WHERE dispatched_at IS NULL');
  await knex.raw('CREATE INDEX payment_events_payment_idx ON payment_events (payment_id, version)');

  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.text('id').primary(); // we_…
    t.text('account_id').notNullable().references('accounts.id');
    t.text('url').notNullable();
    t.text('description');
    t.specificType('enabled_events', 'text[]').notNullable();
    t.text('api_version').notNullable();
    t.text('status').notNullable().defaultTo('enabled'); // enabled | disabled
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true, precision: 3 });
    // Signing secrets are needed in clear to sign, so they are sealed (AES-256-GCM, DATA_ENCRYPTION_KEY), not hashed.
    t.binary('secret').notNullable();
    t.binary('previous_secret');
    t.timestamp('previous_secret_expires_at', { useTz: true, precision: 3 });
    // Start of the current run of failed attempts (null after a success): persistent failure disables the endpoint.
    // The run restarts when the previous failure is older than the longest retry delay (a quiet period).
    t.timestamp('failing_since', { useTz: true, precision: 3 });
    t.timestamp('last_failed_at', { useTz: true, precision: 3 });
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deleted_at', { useTz: true, precision: 3 });
  });
  await knex.raw('CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id, created_at DESC) WHERE deleted_at IS NULL');

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.text('id').primary(); // whd_…
    t.text('event_id').notNullable().references('payment_events.id');
    t.text('endpoint_id').notNullable().references('webhook_endpoints.id');
    t.text('account_id').notNullable();
    t.text('status').notNullable(); // pending | succeeded | failed | cancelled
    t.boolean('redelivery').notNullable().defaultTo(false);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true, precision: 3 });
    // A worker holds a delivery while its request runs; a crashed worker's lease simply runs out. Its writes
    // carry the lease token, so a worker whose lease was taken over cannot overwrite the new holder's state.
    t.timestamp('locked_until', { useTz: true, precision: 3 });
    t.text('lease_token');
    t.timestamp('enqueued_at', { useTz: true, precision: 3 });
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  // One first delivery per (event, endpoint), however many dispatchers race; redeliveries are extra rows.
  await knex.raw('CREATE UNIQUE INDEX webhook_deliveries_first_idx ON webhook_deliveries (event_id, endpoint_id) WHERE NOT redelivery');
  await knex.raw("CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'");
  await knex.raw("CREATE INDEX webhook_deliveries_endpoint_pending_idx ON webhook_deliveries (endpoint_id) WHERE status = 'pending'");

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.text('id').primary(); // wha_…
    t.text('delivery_id').notNullable().references('webhook_deliveries.id');
    t.text('event_id').notNullable();
    t.text('endpoint_id').notNullable();
    t.timestamp('attempted_at', { useTz: true, precision: 3 }).notNullable();
    t.integer('duration_ms').notNullable();
    t.integer('response_status');
    t.text('error');
    t.boolean('succeeded').notNullable();
  });
  await knex.raw('CREATE INDEX webhook_attempts_event_idx ON webhook_attempts (event_id, attempted_at)');
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
