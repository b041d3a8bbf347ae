import type { Handler } from '../../src/http/handlerTypes';
import { changeAccountSettings } from '../../src/usecases/account/settings';

export const updateAccountSettings: Handler<'updateAccountSettings'> = async ({ db, caller, config, body }) => ({
  status: 200,
  body: {
    ...(await changeAccountSettings(db, config.dataKeys, caller.accountId, body.refundReserve, config.refundReserve)),
    livemode: caller.mode === 'live',
  },
});
