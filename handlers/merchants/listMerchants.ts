import type { Handler } from '../../src/http/handlerTypes';
import { listMerchants as list } from '../../src/usecases/merchants/merchants';
import { merchantFull } from './present';

export const listMerchants: Handler<'listMerchants'> = async ({ db, caller, query, version }) => {
  const page = await list(db, caller.accountId, query);
  return {
    status: 200,
    body: { merchants: page.items.map((m) => merchantFull(m, version)), totalCount: page.totalCount, nextCursor: page.nextCursor },
  };
};
