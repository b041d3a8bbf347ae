import type { Handler } from '../../src/http/handlerTypes';
import { unblacklistTestAccount as unblacklist } from '../../src/usecases/testHelpers/blacklist';

export const unblacklistTestAccount: Handler<'unblacklistTestAccount'> = async ({ db, caller, chainWork, query }) => ({
  status: 200,
  body: await unblacklist({ db, chainWork, caller }, query.account),
});
