import { renderHostedEvent } from '../../src/wire/hosted/event';
import type { HostedFacts, PaymentEvent, PaymentEventRecord } from '../../src/domain/paymentEvent';
import { parseHostedEvent } from '../support/hostedWebhookReceiver';

// The hosted 2026-05-18 renderer on the stage combinations a chain test does not reach quickly: a payment that
// failed or expired after the buyer committed, direct mode (no fee), test mode. Every body must parse under the
// receiver written from the hosted field reference (tests/support/hostedWebhookReceiver.ts).

const ASSET = 'eip155:31337/erc20:0x3333333333333333333333333333333333333333';
const record = (over: Partial<PaymentEventRecord>): PaymentEventRecord => ({
  paymentId: 'pay_1',
  merchantId: 'mrch_1',
  referenceId: 'order-1',
  status: 'requires_action',
  failureCode: null,
  currency: 'USD',
  amountMinor: '1000',
  tokenAsset: null,
  tokenAmount: null,
  txHash: null,
  cancelledReason: null,
  refundedAt: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  expiresAt: '2026-12-01T10:15:00.000Z',
  version: 1,
  ...over,
});
const event = (type: PaymentEvent['type'], r: PaymentEventRecord, accountId = 'acct_1234567890123456789012'): PaymentEvent => ({
  id: `evt_${r.version}`,
  paymentId: r.paymentId,
  accountId,
  type,
  version: r.version,
  record: r,
  createdAt: new Date('2026-12-01T10:05:00.000Z'),
});
const facts = (over: Partial<HostedFacts> = {}): HostedFacts => ({
  chainId: 'eip155:31337',
  buyerAccount: 'eip155:31337:0x1111111111111111111111111111111111111111',
  decimals: 6,
  fee: { baseMinor: 10n, bps: 290 },
  settledAmount: null,
  settlementTxHash: null,
  stageTimes: { 'payment.created': '2026-12-01T10:00:00.000Z', 'payment.processing': '2026-12-01T10:01:00.000Z' },
  ...over,
});
const paidRecord = { tokenAsset: ASSET, tokenAmount: '10000000' };
const parse = (e: ReturnType<typeof renderHostedEvent>) => parseHostedEvent(JSON.stringify(e));

describe('hosted 2026-05-18 renderer', () => {
  it('keeps the committed option on a payment that failed or expired after processing started', () => {
    const failed = parse(
      renderHostedEvent(
        event('payment.failed', record({ ...paidRecord, status: 'failed', failureCode: 'tx_reverted', version: 3 })),
        facts(),
      ),
    );
    expect(failed.data).toMatchObject({
      status: 'failed',
      payment_state_version: 3,
      processing: {
        processing_at: '2026-12-01T10:01:00.000Z',
        option_amount: { unit: `caip19/${ASSET}`, value: '10000000' },
        fee: { base_amount: { value: '100000' }, percent_amount: { value: '290000' }, total_amount: { value: '390000' } },
        settlement_amount: { value: '9610000' },
      },
      failed: { failed_at: '2026-12-01T10:05:00.000Z', failure_code: 'tx_reverted' },
      success: null,
      settled: null,
    });
    const expired = parse(
      renderHostedEvent(event('payment.expired', record({ ...paidRecord, status: 'expired', version: 3 })), facts({ stageTimes: {} })),
    );
    // No expiry event written yet: the expiry is the time; no processing event: this event's.
    expect(expired.data).toMatchObject({
      expired: { expired_at: '2026-12-01T10:15:00.000Z' },
      processing: { processing_at: '2026-12-01T10:05:00.000Z' },
    });
  });

  it('renders no fee in direct mode, a null buyer when there is none, and live false in test mode', () => {
    const e = parse(
      renderHostedEvent(
        event('payment.processing', record({ ...paidRecord, status: 'processing', version: 2 }), 'acct_test_1234567890123456789012'),
        facts({ fee: { baseMinor: 0n, bps: 0 }, buyerAccount: null }),
      ),
    );
    expect(e.data).toMatchObject({
      live: false,
      processing: { fee: { total_amount: { value: '0' } }, settlement_amount: { value: '10000000' }, buyer_caip10: null },
    });
  });

  it('shows settled only once the payment settled, with what the transfer sent', () => {
    const r = record({ ...paidRecord, status: 'succeeded', txHash: `0x${'a'.repeat(64)}`, version: 4 });
    const times = { 'payment.processing': '2026-12-01T10:01:00.000Z', 'payment.succeeded': '2026-12-01T10:02:00.000Z' };
    const succeeded = parse(renderHostedEvent(event('payment.succeeded', { ...r, version: 3 }), facts({ stageTimes: times })));
    expect(succeeded.data.settled).toBeNull();
    const settled = parse(
      renderHostedEvent(
        event('payment.settled', r),
        facts({
          settledAmount: '9610000',
          settlementTxHash: `0x${'b'.repeat(64)}`,
          stageTimes: { ...times, 'payment.settled': '2026-12-01T10:03:00.000Z' },
        }),
      ),
    );
    expect(settled.data).toMatchObject({
      success: { succeeded_at: '2026-12-01T10:02:00.000Z', tx_id: `0x${'a'.repeat(64)}` },
      settled: {
        settled_at: '2026-12-01T10:03:00.000Z',
        amount: { unit: `caip19/${ASSET}`, value: '9610000' },
        tx_id: `0x${'b'.repeat(64)}`,
      },
    });
  });
});
