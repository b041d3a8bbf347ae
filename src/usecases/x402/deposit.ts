import { hashTypedData, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Db } from '../../db/knex';
import { DEPOSIT_KEY, sealedAt } from '../../db/sealedColumnsRepo';
import { depositKeyOf, storeDepositKey } from '../../db/x402DepositKeysRepo';
import type { TransferAuthorization } from '../../domain/eip3009';
import { seal, unseal, type DataKeyring } from '../../domain/sealed';
import type { Deposit } from '../../domain/x402Deposit';

// An account scope's x402 deposit address (src/domain/x402Deposit.ts): made the first time it is asked for, its key
// sealed with the data key for its row and opened only to sign the deposit address's onward authorization.

const at = (scope: string) => sealedAt(DEPOSIT_KEY, scope);

/** The scope's deposit address and its signer, made now when the scope has none. */
export async function depositOf(db: Db, keys: DataKeyring, scope: string): Promise<Deposit> {
  const stored =
    (await depositKeyOf(db, scope)) ??
    (await (async () => {
      const key = generatePrivateKey();
      const address = privateKeyToAccount(key).address;
      return storeDepositKey(db, { scope, address, sealedKey: seal(keys, key, at(scope)) });
    })());
  return {
    address: stored.address as Hex,
    sign: (td: TransferAuthorization) =>
      privateKeyToAccount(unseal(keys, stored.sealedKey, at(scope)) as Hex).sign({ hash: hashTypedData(td as never) }),
  };
}
