import { isDeepStrictEqual } from 'node:util';
import { createBackends, type Backends } from '../../src/http/backends';
import { loadConfig } from '../../src/config';
import { validInput } from '../../src/http/pipeline/validate';
import type { RequestContext } from '../../src/http/pipeline/state';

// Request validation takes a short way for valid requests (validInput: the operation's precompiled validators
// on parameters parsed without openapi-backend's per-request parsing). Its verdicts must be openapi-backend's
// own: for every operation of both versions, over paths, query strings, headers and bodies that are valid,
// invalid, odd or malformed, the short way accepts exactly what openapi-backend accepts, with the same coerced
// path and query values (what handlers get), and leaves everything else to openapi-backend's way.
let backends: Backends;
beforeAll(async () => {
  backends = await createBackends();
}, 60_000);

const QUERIES = [
  '',
  'limit=5',
  'limit=abc',
  'limit=1e1',
  'limit[a]=1',
  'status=succeeded',
  'status=succeeded&status=failed',
  'status=nope',
  'status[]=succeeded',
  'unknown=1',
  'maxPollMs=1000',
  'maxPollMs=-5',
  'maxPollMs=1000&maxPollMs=2000',
  '?limit=5',
  'limit=5?x',
  'sortBy=date&sortDir=asc',
  'startTs=1700000000&endTs=1800000000',
  'startTs=2026-01-06T00:00:00Z&endTs=2026-01-07T00:00:00.5%2B01:00',
  'startTs=1e9',
  'network=eip155:8453,eip155:1&network=eip155:10',
  'token_symbol=USDC&token_symbol=eurc,usdt',
  'merchantId=mrch_1&merchantId=mrch_2',
  'sort_by=date&start_ts=2026-01-06T10:00Z&status=succeeded',
  'includePaymentInfo=true',
  'includePaymentInfo=yes',
  'type=payment.created&limit=2',
  'search=a%20b&status=active',
  'referenceId=order-1&merchantId=mrch_1',
];
const HEADERS: Record<string, string>[] = [
  {},
  { 'merchant-id': 'mrch_0123456789abcdef0123', 'idempotency-key': 'key-1', 'pay-version': '2026-02-18' },
  { 'content-type': 'application/json; charset=utf-8', 'merchant-id': 'mrch_x', 'idempotency-key': '' },
  { 'content-type': 'text/plain', 'sdk-name': 'x', 'api-version': '2026-02-19.preview', 'idempotency-key': 'k' },
];
const BODIES: unknown[] = [
  undefined,
  {},
  null,
  [],
  { referenceId: 'order-1', amount: { unit: 'iso4217/USD', value: '1000' } },
  { merchantName: 'Shop', merchantEmail: 'a@b.io' },
  { url: 'https://example.com/hook', enabledEvents: ['payment.created'] },
  {
    settlements: [
      {
        asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        destination: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7',
      },
    ],
  },
];
const IDS = ['pay_0123456789abcdef0123', 'mrch_x', '%41bc', '%E0%A4%A'];

const clone = <T>(x: T): T => (x === undefined ? x : structuredClone(x));

it('accepts exactly what openapi-backend accepts, with the same coerced path and query', () => {
  let compared = 0;
  let accepted = 0;
  const differences: string[] = [];
  for (const backend of Object.values(backends)) {
    for (const op of backend.router.getOperations()) {
      for (const id of IDS) {
        const base = op.path.replace(/\{[^}]+\}/g, id);
        for (const path of [base, `${base}/`]) {
          for (const querystring of QUERIES) {
            for (const headers of HEADERS) {
              for (const body of op.requestBody ? BODIES : [undefined]) {
                const req = { method: op.method.toUpperCase(), path, querystring, headers };
                let expected: { path: unknown; query: unknown } | null | 'threw';
                try {
                  const v = backend.validator.validateRequest(
                    { method: req.method, path, headers: clone(headers), query: querystring, body: clone(body) },
                    op,
                  );
                  expected = v.valid ? { path: v.coerced?.params, query: v.coerced?.query } : null;
                } catch {
                  expected = 'threw';
                }
                const ctx = { ...req, headers: clone(headers) } as unknown as RequestContext;
                const fast = validInput(backend, op, ctx, clone(body));
                const want = expected === 'threw' ? null : expected;
                if (!isDeepStrictEqual(fast, want))
                  differences.push(
                    `${op.operationId} ${req.method} ${path}?${querystring} ${JSON.stringify(headers)} ${JSON.stringify(body)}: ` +
                      `${JSON.stringify(fast)} instead of ${JSON.stringify(want)}`,
                  );
                compared++;
                if (fast) accepted++;
              }
            }
          }
        }
      }
    }
  }
  expect(differences.slice(0, 10)).toEqual([]);
  // The corpus reaches both verdicts, many times.
  expect(compared).toBeGreaterThan(10_000);
  expect(accepted).toBeGreaterThan(500);
  expect(compared - accepted).toBeGreaterThan(5_000);
}, 120_000);

it('PRECOMPILE_VALIDATORS=false: no request validator compiled at start, each on its first request, same verdicts', async () => {
  expect(loadConfig({}).precompileValidators).toBe(true);
  expect(loadConfig({ PRECOMPILE_VALIDATORS: 'false' }).precompileValidators).toBe(false);
  const lazy = (await createBackends(false))['2026-02-18'];
  const compiled = (v: typeof lazy) => Object.keys((v.validator as unknown as { requestValidators: object }).requestValidators);
  expect(compiled(lazy)).toEqual([]);
  expect(compiled(backends['2026-02-18']).length).toBe(backends['2026-02-18'].router.getOperations().length);
  const op = lazy.router.getOperation('getPayment')!;
  for (const [path, valid] of [
    ['/v1/payments/pay_0123456789abcdef0123', true],
    [`/v1/payments/${'x'.repeat(300)}`, false],
  ] as const) {
    const req = { method: 'GET', path, headers: { 'api-key': 'k', 'merchant-id': 'mrch_1' }, query: '' };
    expect(lazy.validator.validateRequest(req, op).valid).toBe(backends['2026-02-18'].validator.validateRequest(req, op).valid);
    expect(lazy.validator.validateRequest(req, op).valid).toBe(valid);
  }
  expect(compiled(lazy)).toEqual(['getPayment']);
});
