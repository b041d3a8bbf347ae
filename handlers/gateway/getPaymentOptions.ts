import type { Handler } from '../../src/http/handlerTypes';
import { offerOptions } from '../../src/usecases/gateway/options';
import { collectDataView, gatewayPaymentView, optionView } from './present';

// `refresh` is accepted and needs no special handling: every call quotes afresh (new ids, nonces, expiry).
export const getPaymentOptions: Handler<'getPaymentOptions'> = async ({ db, config, chainWork, caller, path, query, body, version }) => {
  const r = await offerOptions(db, config, chainWork, path.id, body.accounts, caller.keyId);
  const info = gatewayPaymentView(r.payment, r.merchant, version);
  // A final payment: nothing to pay, and always the payment, whose status the wallet shows (the hosted answer).
  if (r.options === null) return { status: 200, body: { options: null, collectData: null, info } };
  const collectData = r.collectData && collectDataView(r.collectData);
  return {
    status: 200,
    body: {
      options: r.options.map((o) => optionView(o, r.etaS, collectData)),
      ...(collectData ? { collectData } : {}),
      ...(query.includePaymentInfo ? { info } : {}),
    },
  };
};
