import { VERSIONS, bundle, differences, documented, show } from '../support/hostedTypesCheck';
import { checkFacts, facts } from '../support/hostedFactsCheck';

// The hosted service's own type facts (contract-tests/hosted-contract/hosted-types-*.json) against each bundled
// document (how: tests/support/hostedFactsCheck.ts). A finding is either fixed or a difference in types.json
// with its reason; hostedTypes.test.ts checks that no difference is stale.

describe.each(VERSIONS)('bundled %s against the hosted type facts', (version) => {
  const { problems, count } = checkFacts(bundle(version), version);

  it('matches every hosted parameter, field and error code, or the difference is documented', () => {
    const kept = problems.filter(documented);
    const used = new Set(kept.map(documented)).size;
    process.stdout.write(
      `hosted type facts ${version}: ${count} entries checked; ${kept.length} findings fall under ${used} of ${differences.length} documented differences\n`,
    );
    expect(problems.filter((p) => !documented(p)).map(show)).toEqual([]);
  });

  it('checks every operation of the facts', () => {
    expect(facts(version).operations.length).toBeGreaterThanOrEqual(23);
    expect(problems.filter((p) => p.check === 'missing' && p.detail === 'operation not found')).toEqual([]);
  });
});

describe('the hosted type facts check', () => {
  const findings = (mutate: (doc: Record<string, any>) => void) => {
    const doc = bundle('2026-02-18');
    mutate(doc);
    return checkFacts(doc, '2026-02-18')
      .problems.filter((p) => !documented(p))
      .map((p) => `${p.key} ${p.check}`);
  };

  it('fails on a code outside the hosted list for its status, or at another status than the hosted one', () => {
    const found = findings((doc) => {
      const r = doc.components.responses;
      r.ResourceNotFound.content['application/json'].examples.merchant_not_found.value.code = 'merchant_not_found';
      r.RefundBadRequest.content['application/json'].examples.params_validation.value.code = 'invalid_params';
      doc.paths['/v1/merchants'].post.responses['422'] = doc.paths['/v1/merchants'].post.responses['409'];
      delete doc.paths['/v1/merchants'].post.responses['409'];
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'GET /v1/merchants/{merchantId} status 404 code merchant_not_found code',
        'POST /v1/refunds status 400 code invalid_params code',
        'POST /v1/merchants status 422 code idempotency_conflict code',
        'POST /v1/merchants status 422 status',
      ]),
    );
  });

  it('fails on a stricter parameter or request field, a required optional one, and a response outside the hosted type', () => {
    const found = findings((doc) => {
      const s = doc.components.schemas;
      doc.components.parameters.MerchantsLimit.schema.maximum = 50;
      s.ConfirmPaymentRequest.properties.collectedData = { $ref: '#/components/schemas/CollectedData' };
      s.CreatePaymentRequest.required.push('expiresAt');
      s.MerchantStatus = { type: 'string', enum: ['active', 'inactive', 'suspended', 'closed'] };
      s.PaymentStatusResponse.required = s.PaymentStatusResponse.required.filter((x: string) => x !== 'isFinal');
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'GET /v1/merchants param query:limit maximum',
        'POST /v1/gateway/payment/{id}/confirm request /collectedData nullable',
        'POST /v1/payments request /expiresAt required',
        'GET /v1/merchants response /merchants/[]/status enum',
        'GET /v1/payments/{id}/status response /isFinal required',
      ]),
    );
  });
});
