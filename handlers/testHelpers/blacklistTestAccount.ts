import type { Handler } from '../../src/http/handlerTypes';
import { blacklistTestAccount as blacklist } from '../../src/usecases/testHelpers/blacklist';

export const blacklistTestAccount: Handler<'blacklistTestAccount'> = async ({ db, caller, chainWork, body }) => ({
  status: 200,
  body: await blacklist({ db, chainWork, caller }, body.account),
});
