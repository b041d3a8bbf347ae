import { privateKeyToAccount } from 'viem/accounts';
import { buildTransferAuthorization, randomNonce, serialiseTypedData, verifyTransferAuthorization } from '../../src/domain/eip3009';
import { collectedIssues, collectedJson } from '../../src/domain/collectData';
import { resolveGatewayPaymentId } from '../../src/domain/gatewayId';
import { DataKeyring, seal, sealedHeader, sealedKeyId, unseal, UnsealError } from '../../src/domain/sealed';
import { createCipheriv } from 'node:crypto';

const buyer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const other = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const MERCHANT = '0x52908400098527886E0F7030069857D2E4169EE7';

const typedData = (value = 10_000_000n) =>
  serialiseTypedData(
    buildTransferAuthorization({
      kind: 'TransferWithAuthorization',
      domainName: 'USD Coin',
      domainVersion: '2',
      chainId: 8453,
      token: USDC.toLowerCase(),
      from: buyer.address,
      to: MERCHANT,
      value,
      validAfter: 0,
      validBefore: 1_900_000_000,
      nonce: randomNonce(),
    }),
  );
const sign = (json: string, who = buyer) => who.signTypedData(JSON.parse(json));

describe('EIP-3009 typed data', () => {
  it('is a TransferWithAuthorization on the token domain, with checksummed addresses and decimal strings', () => {
    const td = JSON.parse(typedData());
    expect(td.primaryType).toBe('TransferWithAuthorization');
    expect(td.domain).toEqual({ name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC });
    expect(td.message).toMatchObject({ from: buyer.address, to: MERCHANT, value: '10000000', validAfter: '0', validBefore: '1900000000' });
    expect(td.message.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Object.keys(td.types)).toEqual(['EIP712Domain', 'TransferWithAuthorization']);
  });
  it('verifies a signature by the buyer over exactly the stored typed data', async () => {
    const json = typedData();
    expect(await verifyTransferAuthorization(json, buyer.address, await sign(json))).toBe(true);
    expect(await verifyTransferAuthorization(json, buyer.address.toLowerCase(), await sign(json))).toBe(true);
  });
  it('refuses another signer, tampered typed data, a tampered or malformed signature', async () => {
    const json = typedData();
    expect(await verifyTransferAuthorization(json, buyer.address, await sign(json, other))).toBe(false);
    const tampered = JSON.stringify({ ...JSON.parse(json), message: { ...JSON.parse(json).message, value: '1' } });
    expect(await verifyTransferAuthorization(json, buyer.address, await sign(tampered))).toBe(false);
    const sig = await sign(json);
    const flipped = sig.slice(0, 10) + (sig[10] === 'a' ? 'b' : 'a') + sig.slice(11);
    expect(await verifyTransferAuthorization(json, buyer.address, flipped)).toBe(false);
    expect(await verifyTransferAuthorization(json, buyer.address, '0x1234')).toBe(false);
    expect(await verifyTransferAuthorization('{not json', buyer.address, sig)).toBe(false);
  });
  it('a signature by the right key over typed data naming someone else as payer does not verify', async () => {
    const json = typedData();
    expect(await verifyTransferAuthorization(json, other.address, await sign(json, other))).toBe(false);
  });
});

describe('collected data', () => {
  const ok = { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'GB', porAddress: 'London', tosConfirmed: true };
  const fields = (o: Record<string, unknown>) => ({ fields: Object.entries(o).map(([id, value]) => ({ id, value })) });
  it('accepts both wire forms', () => {
    expect(collectedJson(ok)).toEqual({ ok: true, json: JSON.stringify(ok), data: ok });
    expect(collectedJson(fields(ok))).toEqual({ ok: true, json: JSON.stringify(ok), data: ok });
    expect(collectedIssues(ok)).toEqual([]);
  });
  it('takes the string forms of a checkbox and a date in the fields form', () => {
    const r = collectedJson(fields({ ...ok, tosConfirmed: 'true', dob: '1815-12-10T00:00:00.000Z' }));
    expect(r).toEqual({ ok: true, json: JSON.stringify(ok), data: ok });
    const no = collectedJson(fields({ ...ok, tosConfirmed: 'false' }));
    expect(no.ok ? [] : no.issues.map((i) => i.field)).toEqual(['/collectedData/tosConfirmed']);
    const yes = collectedJson(fields({ ...ok, tosConfirmed: 'yes' }));
    expect(yes.ok).toBe(false);
  });
  it('refuses unknown and repeated field ids, __proto__ above all, before the schema sees anything', () => {
    const proto = collectedJson({ fields: [{ id: '__proto__', value: ok }] });
    expect(proto).toEqual({
      ok: false,
      issues: [{ field: '/collectedData/fields/0/id', message: expect.stringContaining('not a known field') }],
    });
    const flat = collectedJson(JSON.parse(`{"__proto__": ${JSON.stringify(ok)}}`), '/data');
    expect(flat).toEqual({ ok: false, issues: [{ field: '/data/__proto__', message: expect.stringContaining('not a known field') }] });
    const twice = collectedJson({ fields: [...fields(ok).fields, { id: 'fullName', value: 'Eve' }] });
    expect(twice.ok ? [] : twice.issues.map((i) => i.field)).toEqual(['/collectedData/fields/5/id']);
  });
  it('reports each problem as a JSON pointer', () => {
    expect(
      collectedIssues({ ...ok, dob: '10/12/1815', tosConfirmed: false, extra: 1 })
        .map((i) => i.field)
        .sort(),
    ).toEqual(['/collectedData/dob', '/collectedData/extra', '/collectedData/tosConfirmed']);
    expect(collectedIssues({ fullName: 'A', dob: '2000-01-01', tosConfirmed: true }).map((i) => i.field)).toEqual(['/collectedData']);
    expect(collectedIssues({ ...ok, porAddress: 'x'.repeat(201) }).map((i) => i.field)).toContain('/collectedData/porAddress');
  });
});

const AT = { table: 'payments', column: 'collected_data', row: ['pay_1'] };

describe('gateway ids and sealed data', () => {
  it('takes a payment id, or its own buyer link URL-encoded, and nothing else', () => {
    const base = 'https://pay.example.com';
    expect(resolveGatewayPaymentId('pay_abc', base)).toBe('pay_abc');
    expect(resolveGatewayPaymentId(encodeURIComponent(`${base}/?pid=pay_abc`), base)).toBe('pay_abc');
    expect(resolveGatewayPaymentId(`${base}/?pid=pay_abc`, base)).toBe('pay_abc');
    expect(resolveGatewayPaymentId(encodeURIComponent('https://evil.example/?pid=pay_abc'), base)).toBeNull();
    expect(resolveGatewayPaymentId('mrch_abc', base)).toBeNull();
  });
  it('seals with AES-256-GCM and detects tampering', () => {
    const key = Buffer.alloc(32, 1);
    const s = seal(key, '{"fullName":"Ada"}', AT);
    expect(s.toString('utf8')).not.toContain('Ada');
    expect(unseal(key, s, AT)).toBe('{"fullName":"Ada"}');
    s[s.length - 1] ^= 1;
    expect(() => unseal(key, s, AT)).toThrow();
  });
  it('names the sealing key; the keyring opens values of every key it holds, and legacy values without an id', () => {
    const older = { id: 'old', key: Buffer.alloc(32, 1) };
    const newer = { id: 'new', key: Buffer.alloc(32, 2) };
    const before = seal(new DataKeyring([older]), 'secret', AT);
    expect(sealedKeyId(before)).toBe('old');
    const ring = new DataKeyring([newer, older]);
    expect(unseal(ring, before, AT)).toBe('secret');
    expect(sealedKeyId(seal(ring, 'x', AT))).toBe('new');
    // The id is authenticated: relabelled as sealed by another key of the ring, a value does not open.
    const swapped = Buffer.concat([before.subarray(0, 8), seal(ring, 'x', AT).subarray(8)]);
    expect(() => unseal(ring, swapped, AT)).toThrow(UnsealError);
    expect(() => unseal(new DataKeyring([newer]), before, AT)).toThrow(/data key "old"/);
    // The previous layout (IV | tag | ciphertext) opens with whichever key sealed it.
    const iv = Buffer.alloc(12, 9);
    const c = createCipheriv('aes-256-gcm', older.key, iv);
    const body = Buffer.concat([c.update('legacy', 'utf8'), c.final()]);
    const legacy = Buffer.concat([iv, c.getAuthTag(), body]);
    expect(sealedKeyId(legacy)).toBeNull();
    expect(unseal(ring, legacy, AT)).toBe('legacy');
    expect(unseal(older.key, legacy, AT)).toBe('legacy');
    // The sealing key handed out as a Buffer stands for its whole keyring.
    expect(unseal(ring.primary.key, before, AT)).toBe('secret');
    expect(sealedKeyId(seal(ring.primary.key, 'y', AT))).toBe('new');
  });
  it('binds each value to its table, column and row; values sealed before that still open, and rotate-data finds them', () => {
    const ring = new DataKeyring([{ id: 'k1', key: Buffer.alloc(32, 3) }]);
    const at = (table: string, column: string, ...row: string[]) => ({ table, column, row });
    const data = seal(ring, '{"fullName":"Ada"}', at('payment_options', 'collected_data', 'opt_a'));
    expect(unseal(ring, data, at('payment_options', 'collected_data', 'opt_a'))).toBe('{"fullName":"Ada"}');
    // Moved to another row, another column or another table, it does not open.
    expect(() => unseal(ring, data, at('payment_options', 'collected_data', 'opt_b'))).toThrow(UnsealError);
    expect(() => unseal(ring, data, at('payment_options', 'other', 'opt_a'))).toThrow(/sealed for another place/);
    expect(() => unseal(ring, data, at('payments', 'collected_data', 'opt_a'))).toThrow(UnsealError);
    // Row keys of several columns are not confused by where they are split.
    const idem = seal(ring, 'r', at('idempotency_keys', 'response_body', 'caller:a', 'b'));
    expect(() => unseal(ring, idem, at('idempotency_keys', 'response_body', 'caller:', 'ab'))).toThrow(UnsealError);
    // The previous layout (0xff "pg" 2, only the header authenticated) opens wherever it is, and is not
    // under the header that rotate-data leaves alone.
    const head2 = Buffer.concat([Buffer.from([0xff, 0x70, 0x67, 0x02, 2]), Buffer.from('k1')]);
    const iv = Buffer.alloc(12, 5);
    const c = createCipheriv('aes-256-gcm', ring.primary.key, iv);
    c.setAAD(head2);
    const body = Buffer.concat([c.update('old secret', 'utf8'), c.final()]);
    const v2 = Buffer.concat([head2, iv, c.getAuthTag(), body]);
    expect(sealedKeyId(v2)).toBe('k1');
    expect(unseal(ring, v2, at('webhook_endpoints', 'secret', 'we_1'))).toBe('old secret');
    expect(unseal(ring, v2, at('webhook_endpoints', 'previous_secret', 'we_2'))).toBe('old secret');
    expect(v2.subarray(0, sealedHeader('k1').length).equals(sealedHeader('k1'))).toBe(false);
    expect(data.subarray(0, sealedHeader('k1').length).equals(sealedHeader('k1'))).toBe(true);
    // A current value relabelled as the previous layout does not open: the place cannot be stripped.
    const relabelled = Buffer.from(data);
    relabelled[3] = 0x02;
    expect(() => unseal(ring, relabelled, at('payment_options', 'collected_data', 'opt_a'))).toThrow(UnsealError);
  });
});
