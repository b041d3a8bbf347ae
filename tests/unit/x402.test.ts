import { tokenUnitsToPegMinor } from '../../src/domain/money';
import { eip3009Payload, paymentIdentifierOf, termsRefusal, type X402Payload, type X402Requirements } from '../../src/domain/x402';

// The x402 terms that need no chain (src/domain/x402.ts) and the amount a settlement's payment takes.

const TOKEN = { eip712Name: 'USD Coin', eip712Version: '2', transferMethod: 'eip3009' };
const PAY_TO = '0x52908400098527886E0F7030069857D2E4169EE7';
const NOW = 1_800_000_000;
const requirements: X402Requirements = {
  scheme: 'exact',
  network: 'eip155:31337',
  asset: '0x' + 'a'.repeat(40),
  amount: '10000',
  payTo: PAY_TO,
  maxTimeoutSeconds: 60,
  extra: { name: 'USD Coin', version: '2' },
};
const authorization = {
  from: '0x' + 'b'.repeat(40),
  to: PAY_TO.toLowerCase(),
  value: '10000',
  validAfter: String(NOW - 600),
  validBefore: String(NOW + 60),
  nonce: '0x' + 'C'.repeat(64),
};
const payload = (over: Record<string, unknown> = {}, ext?: Record<string, unknown>): X402Payload => ({
  x402Version: 2,
  accepted: requirements,
  payload: { signature: '0x' + '1'.repeat(130), authorization: { ...authorization, ...over } },
  ...(ext ? { extensions: ext } : {}),
});
const reasonOf = (p: X402Payload, r = requirements, token = TOKEN) => {
  const parsed = eip3009Payload(p);
  if (!parsed) return 'unparsed';
  return termsRefusal(p, r, parsed.authorization, token, NOW)?.reason ?? null;
};

describe('x402 exact terms', () => {
  it('parses an EIP-3009 payload (addresses checksummed, nonce lower case) and refuses other shapes', () => {
    const parsed = eip3009Payload(payload())!;
    expect(parsed.authorization).toMatchObject({ to: PAY_TO, value: 10000n, nonce: '0x' + 'c'.repeat(64) });
    expect(eip3009Payload(payload({ nonce: '0x12' }))).toBeNull();
    expect(eip3009Payload(payload({ value: '-1' }))).toBeNull();
    expect(eip3009Payload({ ...payload(), payload: { permit2Authorization: {}, signature: '0x' } })).toBeNull();
  });

  it('accepts a payload that meets every term, and names the first one broken', () => {
    expect(reasonOf(payload())).toBeNull();
    expect(reasonOf(payload(), { ...requirements, scheme: 'upto' })).toBe('invalid_exact_evm_scheme');
    expect(reasonOf(payload(), { ...requirements, network: 'eip155:1' })).toBe('invalid_exact_evm_network_mismatch');
    expect(reasonOf(payload(), { ...requirements, extra: {} })).toBe('invalid_exact_evm_missing_eip712_domain');
    expect(reasonOf(payload(), requirements, { ...TOKEN, transferMethod: 'permit2' })).toBe('invalid_exact_evm_eip3009_not_supported');
    expect(reasonOf(payload(), { ...requirements, extra: { name: 'USDC', version: '2' } })).toBe('invalid_exact_evm_token_name_mismatch');
    expect(reasonOf(payload(), { ...requirements, extra: { name: 'USD Coin', version: '1' } })).toBe(
      'invalid_exact_evm_token_version_mismatch',
    );
    expect(reasonOf(payload({ to: '0x' + 'd'.repeat(40) }))).toBe('invalid_exact_evm_recipient_mismatch');
    expect(reasonOf(payload({ validBefore: String(NOW + 5) }))).toBe('invalid_exact_evm_payload_authorization_valid_before');
    expect(reasonOf(payload({ validBefore: String(NOW + 6) }))).toBeNull();
    expect(reasonOf(payload({ validAfter: String(NOW + 1) }))).toBe('invalid_exact_evm_payload_authorization_valid_after');
    expect(reasonOf(payload({ value: '9999' }))).toBe('invalid_exact_evm_authorization_value');
  });

  it('reads the payment-identifier extension only when its id is well-formed', () => {
    const id = 'order_0123456789abcdef';
    expect(paymentIdentifierOf(payload({}, { 'payment-identifier': { info: { required: false, id } } }))).toBe(id);
    expect(paymentIdentifierOf(payload({}, { 'payment-identifier': { info: { required: false, id: 'short' } } }))).toBeNull();
    expect(paymentIdentifierOf(payload())).toBeNull();
  });

  it("a token amount's payment amount is rounded up to a whole minor unit of its peg, never 0", () => {
    expect(tokenUnitsToPegMinor(10_000n, 'USD', 6)).toBe(1n);
    expect(tokenUnitsToPegMinor(1_000n, 'USD', 6)).toBe(1n);
    expect(tokenUnitsToPegMinor(1n, 'USD', 6)).toBe(1n);
    expect(tokenUnitsToPegMinor(10_001n, 'USD', 6)).toBe(2n);
    expect(tokenUnitsToPegMinor(0n, 'USD', 6)).toBeNull();
    expect(tokenUnitsToPegMinor(3n, 'JPY', 0)).toBe(3n);
    expect(tokenUnitsToPegMinor(5n, 'USD', 1)).toBe(50n);
    expect(tokenUnitsToPegMinor(1n, 'XXX', 6)).toBeNull();
  });
});
