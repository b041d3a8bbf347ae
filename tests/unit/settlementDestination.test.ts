import { destinationRefusal } from '../../src/domain/settlementDestination';
import { settlementProblem } from '../../src/domain/settlementState';
import type { Payment } from '../../src/domain/payment';

// What a settlement destination is refused for without the chain, and what payment details say of a settlement not
// done (docs/api.md, "Settlements" and "Settlement in payment details"). tests/integration/settlementDestinations and
// heldSettlement hold them over HTTP on the development chain.

const TOKEN = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const RELAYER = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('destinationRefusal', () => {
  it.each([
    ['0x0000000000000000000000000000000000000000', 'destination_zero_address'],
    [TOKEN.toLowerCase(), 'destination_token_contract'],
    ['0x000000000022d473030f116ddee9f6b43ac78ba3', 'destination_permit2'],
    [RELAYER.toLowerCase(), 'destination_instance_key'],
    ['0xde709f2102306220921060314715629080e2fb77', null],
  ])('%s: %s (whatever its case)', (address, code) => {
    expect(destinationRefusal(address, TOKEN, [RELAYER])).toBe(code);
  });
});

describe('settlementProblem', () => {
  const at = new Date('2026-02-18T10:00:00.000Z');
  const paid = {
    status: 'succeeded',
    settledAt: null,
    settlementAttempts: 0,
    settlementNextAt: null,
    settlementHeldAt: null,
    settlementHoldReason: null,
  } as unknown as Payment;
  const of = (p: Partial<Payment>) => settlementProblem({ ...paid, ...p });

  it('is nothing on a first attempt, once settled, or before the payment succeeded', () => {
    expect(of({})).toBeNull();
    expect(of({ settledAt: at, settlementAttempts: 2 })).toBeNull();
    expect(of({ status: 'processing', settlementAttempts: 1 })).toBeNull();
  });

  it('is pending while a failed attempt waits for the next', () => {
    expect(of({ settlementAttempts: 2, settlementNextAt: at })).toMatchObject({
      status: 'pending',
      code: 'retrying',
      attempts: 2,
      nextAttemptAt: at,
    });
  });

  it.each([
    ['simulation:token_refused', 'token_refused', 'change_destination'],
    ['reverted:insufficient_funds', 'insufficient_funds', 'change_destination'],
    ['reverted:batch', 'transaction_reverted', 'change_destination'],
    ['something else', 'transaction_reverted', 'change_destination'],
    ['operator', 'held_by_operator', 'contact_operator'],
    ['operator: fraud review', 'held_by_operator', 'contact_operator'],
  ])('is failed once held (%s): code %s, action %s', (reason, code, action) => {
    expect(of({ settlementAttempts: 5, settlementHeldAt: at, settlementHoldReason: reason })).toMatchObject({
      status: 'failed',
      code,
      attempts: 5,
      heldAt: at,
      action,
    });
  });
});
