import { privateKeyToAccount } from 'viem/accounts';
import { buildTransferAuthorization, randomNonce, serialiseTypedData, verifyTransferAuthorization } from '../../src/domain/eip3009';
import { collectedIssues, collectedJson } from '../../src/domain/collectData';
import { resolveGatewayPaymentId } from '../../src/domain/gatewayId';
import { DataKeyring, seal, sealedKeyId, unseal, UnsealError } from '../../src/domain/sealed';
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
    const s = seal(key, '{"fullName":"Ada"}');
    expect(s.toString('utf8')).not.toContain('Ada');
    expect(unseal(key, s)).toBe('{"fullName":"Ada"}');
    s[s.length - 1] ^= 1;
    expect(() => unseal(key, s)).toThrow();
  });
  it('names the sealing key; the keyring opens values of every key it holds, and legacy values without an id', () => {
    const older = { id: 'old', key: Buffer.alloc(32, 1) };
    const newer = { id: 'new', key: Buffer.alloc(32, 2) };
    const before = seal(new DataKeyring([older]), 'secret');
    expect(sealedKeyId(before)).toBe('old');
    const ring = new DataKeyring([newer, older]);
    expect(unseal(ring, before)).toBe('secret');
    expect(sealedKeyId(seal(ring, 'x'))).toBe('new');
    // The id is authenticated: relabelled as sealed by another key of the ring, a value does not open.
    const swapped = Buffer.concat([before.subarray(0, 8), seal(ring, 'x').subarray(8)]);
    expect(() => unseal(ring, swapped)).toThrow(UnsealError);
    expect(() => unseal(new DataKeyring([newer]), before)).toThrow(/data key "old"/);
    // The previous layout (IV | tag | ciphertext) opens with whichever key sealed it.
    const iv = Buffer.alloc(12, 9);
    const c = createCipheriv('aes-256-gcm', older.key, iv);
    const body = Buffer.concat([c.update('legacy', 'utf8'), c.final()]);
    const legacy = Buffer.concat([iv, c.getAuthTag(), body]);
    expect(sealedKeyId(legacy)).toBeNull();
    expect(unseal(ring, legacy)).toBe('legacy');
    expect(unseal(older.key, legacy)).toBe('legacy');
    // The sealing key handed out as a Buffer stands for its whole keyring.
    expect(unseal(ring.primary.key, before)).toBe('secret');
    expect(sealedKeyId(seal(ring.primary.key, 'y'))).toBe('new');
  });
});
