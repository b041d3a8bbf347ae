import { admin } from '../support/service';
import { merchantWithSettlement } from '../support/fixtures';
import { newBuyer } from '../support/chain';
import { loadConfig } from '../../src/config';
import { unseal } from '../../src/domain/sealed';
import {
  BUYER_BASE,
  confirm,
  expectRefused,
  firstOption,
  gw,
  newPayment,
  options,
  row,
  signAction,
  svc,
  useGatewaySuite,
} from '../support/gatewaySuite';

useGatewaySuite();

describe('data collection above the threshold', () => {
  let shop: Awaited<ReturnType<typeof merchantWithSettlement>>;
  const data = { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'GB', porAddress: '12 St James Sq, London', tosConfirmed: true };
  beforeAll(async () => {
    shop = await merchantWithSettlement(svc, 'Big Ticket');
    expect(await admin('accounts', 'set-threshold', '--account', shop.accountId, '--minor', '500')).toEqual({
      accountId: shop.accountId,
      collectDataThresholdMinor: '500',
    });
  });

  it('offers collectData (fields, the schema, the page url) and requires valid data at confirm', async () => {
    const id = await newPayment('1000', shop.asMerchant);
    const o = await options(id);
    expect(o.body.collectData).toMatchObject({
      fields: expect.arrayContaining([
        expect.objectContaining({ id: 'fullName', required: true, type: 'text' }),
        expect.objectContaining({ id: 'dob', type: 'date' }),
      ]),
      schema: { type: 'object', additionalProperties: false, required: ['fullName', 'dob', 'tosConfirmed'] },
      // The link's token is this wallet's for this payment (src/domain/collectLink.ts).
      url: expect.stringMatching(
        new RegExp(`^https://pay\\.example\\.com/collect\\?pid=${id}&accounts=${encodeURIComponent(BUYER_BASE)}&token=[A-Za-z0-9_-]{43}$`),
      ),
    });
    const opt = o.body.options[0];
    expect(opt.collectData).toEqual(o.body.collectData);
    const sig = await signAction(opt);
    await expectRefused(await confirm(id, opt.id, sig), 400, 'invalid_params', id, 'collect_data_required');
    const bad = await confirm(id, opt.id, sig, { collectedData: { ...data, dob: '10/12/1815', tosConfirmed: false } });
    await expectRefused(bad, 400, 'params_validation', id);
    expect(bad.body.issues.map((i: any) => i.field).sort()).toEqual(['/collectedData/dob', '/collectedData/tosConfirmed']);
    const noPlace = await confirm(id, opt.id, sig, { collectedData: { fullName: 'A', dob: '2000-01-01', tosConfirmed: true } });
    await expectRefused(noPlace, 400, 'params_validation', id);

    const fields = { fields: Object.entries(data).map(([fid, value]) => ({ id: fid, value })) };
    const ok = await confirm(id, opt.id, sig, { collectedData: fields });
    expect(ok.status).toBe(200);
    const stored = (await row(id)).collected_data as Buffer;
    expect(stored.length).toBeGreaterThan(28);
    expect(stored.toString('latin1')).not.toContain('Lovelace');
  });

  it('fetch requires the data, stores it (flat form), and confirm then needs it no more', async () => {
    const id = await newPayment('1000', shop.asMerchant);
    const opt = await firstOption(id);
    const none = await gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: opt.id, data: null } });
    expect({ status: none.status, code: none.body.code, reason: none.body.reason }).toEqual({
      status: 400,
      code: 'invalid_params',
      reason: 'collect_data_required',
    });
    const f = await gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: opt.id, data } });
    expect(f.status).toBe(200);
    expect(f.body.actions).toEqual(opt.actions);
    expect((await confirm(id, opt.id, await signAction(opt))).body.status).toBe('processing');
  });

  // The service's key (the built-in development key in tests): what is sealed can be read back.
  // Each value is sealed for its row: a payment's for payments.collected_data, an option's for payment_options.
  const opened = (sealed: Buffer | null, table: 'payments' | 'payment_options', id: string) =>
    sealed &&
    JSON.parse(
      unseal(loadConfig({ ...process.env, NODE_ENV: 'test' }).dataEncryptionKey, sealed, { table, column: 'collected_data', row: [id] }),
    );
  const asFields = (o: Record<string, unknown>) => ({ fields: Object.entries(o).map(([fid, value]) => ({ id: fid, value })) });

  it('a field id __proto__ (or any unknown id) is 400 params_validation with issues; nothing is sealed', async () => {
    const id = await newPayment('1000', shop.asMerchant);
    const opt = await firstOption(id);
    const sig = await signAction(opt);
    // Before the fix the data landed on the record's prototype: Ajv saw valid data and `{}` was sealed.
    const proto = await confirm(id, opt.id, sig, { collectedData: { fields: [{ id: '__proto__', value: data }] } });
    await expectRefused(proto, 400, 'params_validation', id);
    expect(proto.body).toEqual({
      code: 'params_validation',
      message: expect.any(String),
      requestId: expect.stringMatching(/^req_/),
      issues: [{ field: '/collectedData/fields/0/id', message: expect.stringContaining('not a known field') }],
    });
    const mixed = await confirm(id, opt.id, sig, {
      collectedData: { fields: [...asFields(data).fields, { id: 'nickname', value: 'Ada' }, { id: 'dob', value: '1815-12-11' }] },
    });
    await expectRefused(mixed, 400, 'params_validation', id);
    expect(mixed.body.issues.map((i: any) => i.field)).toEqual(['/collectedData/fields/5/id', '/collectedData/fields/6/id']);
    // The flat form, with __proto__ as an own key of the JSON object.
    const flat = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      raw: JSON.stringify({ optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] }).replace(
        /}$/,
        `,"collectedData":{"__proto__":${JSON.stringify(data)}}}`,
      ),
      headers: { 'content-type': 'application/json' },
    });
    await expectRefused(flat, 400, 'params_validation', id);
    expect(flat.body.issues).toEqual([{ field: '/collectedData/__proto__', message: expect.stringContaining('not a known field') }]);
    expect((await row(id)).collected_data).toBeNull();

    // fetch's data: refused the same way, and the option keeps no data.
    const f = await gw('POST', `/v1/gateway/payment/${id}/fetch`, {
      body: { optionId: opt.id, data: { fields: [{ id: '__proto__', value: data }] } },
    });
    expect({ status: f.status, code: f.body.code, issues: f.body.issues }).toEqual({
      status: 400,
      code: 'params_validation',
      issues: [{ field: '/data/fields/0/id', message: expect.stringContaining('not a known field') }],
    });
    expect((await svc.db('payment_options').where({ id: opt.id }).first()).collected_data).toBeNull();

    // The same data under real ids is accepted, and what is sealed is that data.
    const ok = await confirm(id, opt.id, sig, { collectedData: asFields(data) });
    expect(ok.status).toBe(200);
    expect(opened((await row(id)).collected_data, 'payments', id)).toEqual(data);
  });

  it('takes the string forms of the hosted contract ("true", a date-time) in the fields form, and seals the normalised values', async () => {
    // A buyer of its own: the file's earlier confirms may still be in flight, and a buyer has at most
    // REVERT_BUDGET_PER_BUYER (3) payments in flight before a confirm is 429 too_many_reverts.
    const own = await newBuyer(100_000_000n);
    const ownOption = async (id: string) => (await options(id, [`eip155:31337:${own.address}`])).body.options[0];
    const id = await newPayment('1000', shop.asMerchant);
    const opt = await ownOption(id);
    const strings = { ...data, tosConfirmed: 'true', dob: '1815-12-10T00:00:00.000Z' };
    const ok = await confirm(id, opt.id, await signAction(opt, own), { collectedData: asFields(strings) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'processing', isFinal: false });
    expect(opened((await row(id)).collected_data, 'payments', id)).toEqual({ ...data, tosConfirmed: true, dob: '1815-12-10' });

    const id2 = await newPayment('1000', shop.asMerchant);
    const opt2 = await ownOption(id2);
    const declined = await confirm(id2, opt2.id, await signAction(opt2, own), {
      collectedData: asFields({ ...data, tosConfirmed: 'false' }),
    });
    await expectRefused(declined, 400, 'params_validation', id2);
    expect(declined.body.issues).toEqual([{ field: '/collectedData/tosConfirmed', message: expect.any(String) }]);
    // fetch takes them too, and confirm then needs nothing more.
    const f = await gw('POST', `/v1/gateway/payment/${id2}/fetch`, { body: { optionId: opt2.id, data: asFields(strings) } });
    expect(f.status).toBe(200);
    expect(opened((await svc.db('payment_options').where({ id: opt2.id }).first()).collected_data, 'payment_options', opt2.id)).toEqual({
      ...data,
      tosConfirmed: true,
      dob: '1815-12-10',
    });
    expect((await confirm(id2, opt2.id, await signAction(opt2, own))).body.status).toBe('processing');
  });

  it('below the threshold nothing is collected', async () => {
    const id = await newPayment('499', shop.asMerchant);
    const o = await options(id);
    expect(o.body.collectData).toBeUndefined();
    expect(o.body.options[0].amount.value).toBe('4990000');
  });
});
