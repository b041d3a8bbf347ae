import type { Handler } from '../../src/http/handlerTypes';
import { accountSettings } from '../../src/usecases/account/settings';

export const getAccountSettings: Handler<'getAccountSettings'> = async ({ db, caller, config }) => ({
  status: 200,
  body: { ...(await accountSettings(db, config.dataKeys, caller.accountId, config.refundReserve)), livemode: caller.mode === 'live' },
});
