import { getAddress, type Hex } from 'viem';
import type { Chains } from '../chain/chains';
import type { ContractWalletSettings } from '../config/chains';
import { ChainUnavailable, type AuthorizationCheck, type ChainWork } from '../domain/chain';
import { canonicalSignature, verifyTransferAuthorization, type TransferAuthorization } from '../domain/eip3009';

// Confirm's check of an authorization, before anything moves: the signature (an EOA's, normalised to the form tokens
// accept; or a smart-contract wallet's ERC-1271 answer, where the operator accepts contract wallets: CONTRACT_WALLETS),
// then the submission simulated as the relayer will send it: from its key, with the fees it will offer, against the
// pending block, within a gas limit (src/chain/evm.ts). A contract wallet answers what the chain will ask, not a
// question asked at gas price 0; what still reverts on chain is counted against a budget (src/usecases/revertBudget.ts).

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2}){1,4096}$/;

const accepts = (policy: ContractWalletSettings, wallet: string) =>
  policy.mode === 'on' || (policy.mode === 'allowlist' && policy.allowlist.includes(wallet.toLowerCase()));

export function authorizationChecker(chains: Chains, contractWallets: ContractWalletSettings): ChainWork['checkAuthorization'] {
  return async (chainId: string, typedDataJson: string, signature: string, submitter: string): Promise<AuthorizationCheck> => {
    const chain = chains.get(chainId);
    if (!chain) throw new ChainUnavailable(`chain ${chainId} is not configured`);
    const td = JSON.parse(typedDataJson) as TransferAuthorization;
    const relayer = getAddress(submitter);
    const fees = await chain.fees();
    let sig: Hex | null = null;
    const canonical = canonicalSignature(signature);
    if (canonical && (await verifyTransferAuthorization(typedDataJson, td.message.from, canonical))) sig = canonical;
    else if (HEX_BYTES.test(signature) && (await chain.hasCode(td.message.from))) {
      if (!accepts(contractWallets, td.message.from))
        return { ok: false, refusal: 'contract_wallet_not_accepted', reason: 'contract-wallet signatures are not accepted here' };
      if (await chain.verifyContractSignature(td, signature as Hex, relayer, fees)) sig = signature as Hex;
    }
    if (!sig) return { ok: false, refusal: 'invalid_signature', reason: "the signature does not recover the authorization's signer" };
    const sim = await chain.simulate(relayer, chain.authorizationCall(td, sig), fees);
    return sim.ok ? { ok: true, signature: sig } : sim;
  };
}
