// A receiver of the hosted WalletConnect Pay service's webhook payloads (`api_version` 2026-05-18), written from
// that service's published field reference, not from our renderer: what a partner's existing receiver expects.
// `parseHostedEvent` checks every documented field (its presence, type and nullability) and which stage objects
// each event type carries; fields it does not know are ignored, as the contract asks of receivers (it is
// additive-only). `HostedPaymentStore` applies events the documented way: drop a duplicate `id`, keep the highest
// `payment_state_version` per payment.

export const HOSTED_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.settled',
] as const;
export type HostedType = (typeof HOSTED_TYPES)[number];
type Stage = 'processing' | 'success' | 'failed' | 'cancelled' | 'expired' | 'settled';
const STAGES: Stage[] = ['processing', 'success', 'failed', 'cancelled', 'expired', 'settled'];
const STATUSES = ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'];

/** Per type: the status it carries, the stages it always populates, and those it may populate. */
const RULES: Record<HostedType, { status: string; always: Stage[]; may: Stage[] }> = {
  'payment.created': { status: 'requires_action', always: [], may: [] },
  'payment.processing': { status: 'processing', always: ['processing'], may: [] },
  'payment.succeeded': { status: 'succeeded', always: ['processing', 'success'], may: ['settled'] },
  'payment.failed': { status: 'failed', always: ['failed'], may: ['processing'] },
  'payment.expired': { status: 'expired', always: ['expired'], may: ['processing'] },
  'payment.cancelled': { status: 'cancelled', always: ['cancelled'], may: [] },
  'payment.settled': { status: 'succeeded', always: ['processing', 'success', 'settled'], may: [] },
};

export interface HostedAmount {
  unit: string;
  value: string;
}
export interface HostedPayment {
  payment_id: string;
  merchant_id: string;
  live: boolean;
  payment_state_version: number;
  reference_id: string;
  status: string;
  amount: HostedAmount;
  created_at: string;
  expires_at: string;
  processing: {
    processing_at: string;
    option_amount: HostedAmount;
    fee: {
      kind: string;
      base_amount: HostedAmount;
      percent: { numerator: string; denominator: string };
      percent_amount: HostedAmount;
      total_amount: HostedAmount;
    };
    settlement_amount: HostedAmount;
    buyer_caip10: string | null;
    chain_caip2: string;
  } | null;
  success: { succeeded_at: string; tx_id: string } | null;
  failed: { failed_at: string } | null;
  cancelled: { cancelled_at: string } | null;
  expired: { expired_at: string } | null;
  settled: { settled_at: string; amount: HostedAmount; tx_id: string } | null;
}
export interface HostedEvent {
  id: string;
  type: HostedType;
  api_version: '2026-05-18';
  created_at: string;
  data: HostedPayment;
}

class HostedPayloadError extends Error {}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const DIGITS = /^\d+$/;

function check(ok: boolean, path: string, what: string): void {
  if (!ok) throw new HostedPayloadError(`${path}: ${what}`);
}
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function obj(v: unknown, path: string): Record<string, unknown> {
  check(isObject(v), path, 'not an object');
  return v as Record<string, unknown>;
}
function str(o: Record<string, unknown>, k: string, path: string, nullable = false): void {
  check(k in o, `${path}.${k}`, 'missing');
  check(typeof o[k] === 'string' || (nullable && o[k] === null), `${path}.${k}`, `not a string${nullable ? ' or null' : ''}`);
}
function time(o: Record<string, unknown>, k: string, path: string): void {
  str(o, k, path);
  check(ISO_UTC.test(o[k] as string), `${path}.${k}`, 'not an ISO 8601 UTC time');
}
function amount(v: unknown, path: string, unitPrefix: 'iso4217/' | 'caip19/'): void {
  const a = obj(v, path);
  str(a, 'unit', path);
  str(a, 'value', path);
  check((a.unit as string).startsWith(unitPrefix), `${path}.unit`, `not a ${unitPrefix} unit`);
  check(DIGITS.test(a.value as string), `${path}.value`, 'not a decimal integer string');
}

const STAGE_CHECKS: Record<Stage, (o: Record<string, unknown>, path: string) => void> = {
  processing: (o, p) => {
    time(o, 'processing_at', p);
    amount(o.option_amount, `${p}.option_amount`, 'caip19/');
    const fee = obj(o.fee, `${p}.fee`);
    str(fee, 'kind', `${p}.fee`);
    for (const k of ['base_amount', 'percent_amount', 'total_amount']) amount(fee[k], `${p}.fee.${k}`, 'caip19/');
    const pct = obj(fee.percent, `${p}.fee.percent`);
    for (const k of ['numerator', 'denominator']) {
      str(pct, k, `${p}.fee.percent`);
      check(DIGITS.test(pct[k] as string), `${p}.fee.percent.${k}`, 'not a decimal integer string');
    }
    amount(o.settlement_amount, `${p}.settlement_amount`, 'caip19/');
    str(o, 'buyer_caip10', p, true);
    str(o, 'chain_caip2', p);
  },
  success: (o, p) => {
    time(o, 'succeeded_at', p);
    str(o, 'tx_id', p);
  },
  failed: (o, p) => time(o, 'failed_at', p),
  cancelled: (o, p) => time(o, 'cancelled_at', p),
  expired: (o, p) => time(o, 'expired_at', p),
  settled: (o, p) => {
    time(o, 'settled_at', p);
    amount(o.amount, `${p}.amount`, 'caip19/');
    str(o, 'tx_id', p);
  },
};

/** The event of a raw body, or HostedPayloadError saying which documented field is not as documented. */
export function parseHostedEvent(raw: string): HostedEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new HostedPayloadError('body: not JSON');
  }
  const e = obj(parsed, 'event');
  str(e, 'id', 'event');
  str(e, 'type', 'event');
  check((HOSTED_TYPES as readonly string[]).includes(e.type as string), 'event.type', `not a documented type: ${String(e.type)}`);
  check(e.api_version === '2026-05-18', 'event.api_version', 'not 2026-05-18');
  time(e, 'created_at', 'event');
  const d = obj(e.data, 'data');
  for (const k of ['payment_id', 'merchant_id', 'reference_id', 'status']) str(d, k, 'data');
  check(typeof d.live === 'boolean', 'data.live', 'not a boolean');
  check(
    Number.isInteger(d.payment_state_version) && (d.payment_state_version as number) >= 0,
    'data.payment_state_version',
    'not a non-negative integer',
  );
  check(STATUSES.includes(d.status as string), 'data.status', 'not a documented status');
  amount(d.amount, 'data.amount', 'iso4217/');
  time(d, 'created_at', 'data');
  time(d, 'expires_at', 'data');
  const rule = RULES[e.type as HostedType];
  check(d.status === rule.status, 'data.status', `${String(d.status)} on a ${String(e.type)} event`);
  for (const s of STAGES) {
    check(s in d, `data.${s}`, 'missing (it is null until its stage)');
    if (d[s] === null) {
      check(!rule.always.includes(s), `data.${s}`, `null on a ${String(e.type)} event`);
      continue;
    }
    check(rule.always.includes(s) || rule.may.includes(s), `data.${s}`, `populated on a ${String(e.type)} event`);
    STAGE_CHECKS[s](obj(d[s], `data.${s}`), `data.${s}`);
  }
  return parsed as HostedEvent;
}

/** A receiver's state: each payment as of the newest event applied, whatever order the deliveries came in. */
export class HostedPaymentStore {
  readonly payments = new Map<string, HostedPayment>();
  private readonly seen = new Set<string>();

  /** `applied`, `duplicate` (an id seen before) or `stale` (a version no newer than the one kept). */
  apply(e: HostedEvent): 'applied' | 'duplicate' | 'stale' {
    if (this.seen.has(e.id)) return 'duplicate';
    this.seen.add(e.id);
    const kept = this.payments.get(e.data.payment_id);
    if (kept && kept.payment_state_version >= e.data.payment_state_version) return 'stale';
    this.payments.set(e.data.payment_id, e.data);
    return 'applied';
  }
}
