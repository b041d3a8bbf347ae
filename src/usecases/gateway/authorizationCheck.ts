import { getAddress, hashTypedData, type Hex } from 'viem';
import type { Chains } from '../../chain/chains';
import { authorizationCall, type ChainCall, type EvmChain } from '../../chain/evm';
import { approvalStillPending, permitRefusal } from '../../chain/permit2Proofs';
import type { ContractWalletSettings } from '../../config/chains';
import type { Fees } from '../../domain/fees';
import { ChainUnavailable, type AuthorizationCheck, type ChainWork, type PermitContext } from '../../domain/chain';
import { canonicalSignature, verifyTransferAuthorization, type TransferAuthorization } from '../../domain/eip3009';
import { counterfactualOf } from '../../domain/erc6492';
import { isNativeQuote, type NativeQuote } from '../../domain/nativeQuote';
import { checkNativeTransaction } from '../../chain/nativeCoin';
import { isPermit, permitDigest, permitTerms, permitTransferCall, verifyPermit, type PermitTypedData } from '../../domain/permit2';

// Confirm's check of an authorization, before anything moves: the signature (an EOA's, normalised to the form tokens
// accept; or a smart-contract wallet's ERC-1271 answer, or ERC-6492 for one not deployed yet, where the operator
// accepts contract wallets: CONTRACT_WALLETS),
// then the submission simulated as the relayer will send it: from its key, with the fees it will offer, against the
// pending block, within a gas limit (src/chain/evm.ts). A contract wallet answers what the chain will ask, not a
// question asked at gas price 0; what still reverts on chain is counted against a budget (src/usecases/gateway/revertBudget.ts).
// A Permit2 permit is checked the same way, and its state read first (deadline, nonce, allowance, balance) so that
// each refusal has its own code; an approve the wallet just sent is waited for briefly.

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2}){1,4096}$/;

const accepts = (policy: ContractWalletSettings, wallet: string) =>
  policy.mode === 'on' || (policy.mode === 'allowlist' && policy.allowlist.includes(wallet.toLowerCase()));

/** A signature the chain will accept: what is stored, what the token's call carries, and the wallet's deployment first. */
type Verified = { ok: true; signature: Hex; inner: Hex; deploy: ChainCall | null } | Extract<AuthorizationCheck, { ok: false }>;

const INVALID = { ok: false, refusal: 'invalid_signature', reason: "the signature does not recover the authorization's signer" } as const;

/**
 * The signature as the chain will check it: an EOA's (canonical form); or a contract wallet's the operator accepts,
 * deployed (ERC-1271) or not yet (ERC-6492: checked by the universal validator, and the wallet's deployment then
 * comes before the transfer). A deployed wallet's ERC-6492 signature is checked by its inner signature.
 */
async function verifiedSignature(
  chain: EvmChain,
  policy: ContractWalletSettings,
  signer: string,
  digest: Hex,
  eoaValid: (canonical: Hex) => boolean | Promise<boolean>,
  signature: string,
  relayer: Hex,
  fees: Fees,
): Promise<Verified> {
  const canonical = canonicalSignature(signature);
  if (canonical && (await eoaValid(canonical))) return { ok: true, signature: canonical, inner: canonical, deploy: null };
  if (!HEX_BYTES.test(signature)) return INVALID;
  const cf = counterfactualOf(signature);
  const deployed = await chain.hasCode(signer);
  if (!cf && !deployed) return INVALID;
  if (!accepts(policy, signer))
    return { ok: false, refusal: 'contract_wallet_not_accepted', reason: 'contract-wallet signatures are not accepted here' };
  const sig = signature as Hex;
  // The factory call is sent from the relayer's key: a call to a token, Permit2 or a relayer would act as the relayer.
  if (cf && !deployed && (await chain.isPrivilegedTarget(cf.factory))) return INVALID;
  if (cf && !deployed)
    return (await chain.verifyCounterfactualSignature(signer, digest, sig, relayer, fees))
      ? { ok: true, signature: sig, inner: cf.signature, deploy: { to: cf.factory, data: cf.factoryData } }
      : INVALID;
  const inner = cf?.signature ?? sig;
  return (await chain.verifyContractSignature(signer, digest, inner, relayer, fees))
    ? { ok: true, signature: sig, inner, deploy: null }
    : INVALID;
}

/** The submission simulated as the relayer will send it: after the wallet's deployment when it comes first. */
async function simulated(chain: EvmChain, relayer: Hex, sig: Extract<Verified, { ok: true }>, call: ChainCall, fees: Fees) {
  const sim = sig.deploy ? await chain.simulateAfter(relayer, sig.deploy, call, fees) : await chain.simulate(relayer, call, fees);
  return sim.ok ? ({ ok: true, signature: sig.signature } as const) : sim;
}

async function checkPermit(
  chain: EvmChain,
  policy: ContractWalletSettings,
  td: PermitTypedData,
  json: string,
  signature: string,
  relayer: Hex,
  permit: PermitContext,
): Promise<AuthorizationCheck> {
  const fees = await chain.fees();
  const owner = getAddress(permit.owner);
  if (getAddress(td.message.spender) !== relayer) throw new Error('a permit is submitted by the spender it names');
  const sig = await verifiedSignature(
    chain,
    policy,
    owner,
    permitDigest(td),
    (c) => verifyPermit(json, owner, c),
    signature,
    relayer,
    fees,
  );
  if (!sig.ok) return sig;
  const refused = await permitRefusal(chain, permitTerms(td), owner);
  if (refused?.refusal === 'allowance_insufficient' && permit.approveTx && (await approvalStillPending(chain, permit.approveTx)))
    return { ok: false, refusal: 'approval_pending', reason: `the approve ${permit.approveTx} is not mined yet` };
  const again =
    refused?.refusal === 'allowance_insufficient' && permit.approveTx ? await permitRefusal(chain, permitTerms(td), owner) : refused;
  if (again) return again;
  return simulated(chain, relayer, sig, permitTransferCall(td, owner, permit.to, sig.inner), fees);
}

export function authorizationChecker(chains: Chains, contractWallets: ContractWalletSettings): ChainWork['checkAuthorization'] {
  return async (chainId, typedDataJson, signature, submitter, permit): Promise<AuthorizationCheck> => {
    const chain = chains.get(chainId);
    if (!chain) throw new ChainUnavailable(`chain ${chainId} is not configured`);
    const td = JSON.parse(typedDataJson) as TransferAuthorization | PermitTypedData | NativeQuote;
    // The chain's own coin: the "signature" is the buyer's transaction, checked as it is on the chain.
    if (isNativeQuote(td)) return checkNativeTransaction(chain, td, signature);
    const relayer = getAddress(submitter);
    if (isPermit(td)) {
      if (!permit) throw new Error('a permit is checked with its owner and recipient');
      return checkPermit(chain, contractWallets, td, typedDataJson, signature, relayer, permit);
    }
    const fees = await chain.fees();
    const from = td.message.from;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- viem cannot infer its typed-data generics from a runtime value
    const digest = hashTypedData(td as any);
    const eoaValid = (c: Hex) => verifyTransferAuthorization(typedDataJson, from, c);
    const sig = await verifiedSignature(chain, contractWallets, from, digest, eoaValid, signature, relayer, fees);
    if (!sig.ok) return sig;
    return simulated(chain, relayer, sig, authorizationCall(td, sig.inner, sig.inner !== sig.signature), fees);
  };
}
