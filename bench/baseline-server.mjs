// Baseline for bench/http.mjs: plain Koa + one knex statement per request, no validation, no auth.
import http from 'node:http';
import crypto from 'node:crypto';
import Koa from 'koa';
import knex from 'knex';

const db = knex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 10 } });
await db.raw(`CREATE TABLE IF NOT EXISTS baseline_payments (
  id text PRIMARY KEY, merchant_id text NOT NULL, reference_id text NOT NULL, currency text NOT NULL,
  amount_minor numeric(78,0) NOT NULL, status text NOT NULL, expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, version int NOT NULL DEFAULT 1)`);
await db('baseline_payments')
  .insert({
    id: 'fixed',
    merchant_id: 'm',
    reference_id: 'r',
    currency: 'USD',
    amount_minor: '1000',
    status: 'requires_action',
    expires_at: new Date(),
    created_at: new Date(),
    updated_at: new Date(),
  })
  .onConflict('id')
  .ignore();

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'POST') {
    let raw = '';
    for await (const chunk of ctx.req) raw += chunk;
    const body = JSON.parse(raw);
    const now = new Date();
    const id = 'pay_' + crypto.randomBytes(16).toString('base64url');
    await db('baseline_payments').insert({
      id,
      merchant_id: 'm',
      reference_id: body.referenceId,
      currency: 'USD',
      amount_minor: body.amount.value,
      status: 'requires_action',
      expires_at: now,
      created_at: now,
      updated_at: now,
    });
    ctx.status = 201;
    ctx.body = { paymentId: id, status: 'requires_action' };
  } else {
    const row = await db('baseline_payments').where({ id: 'fixed' }).first('status', 'version');
    ctx.body = { status: row.status, isFinal: false };
  }
});
http.createServer(app.callback()).listen(Number(process.env.PORT), '127.0.0.1');
