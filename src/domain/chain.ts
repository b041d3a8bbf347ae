import type { Fees } from './fees';
import type { Mode } from './mode';

// The chain port: what the payment flow needs from an EVM chain. The adapter (src/chain/evm.ts) talks to
// an RPC node; the relayer (src/jobs/chainJobs.ts with src/db/relayer/) signs and tracks transactions.

/**
 * Why an authorization cannot succeed on chain, as the token would say it. Each is a documented error
 * code at confirm (the payment stays payable) and a failure code when a submitted transaction fails.
 */
export type ChainRefusal =
  | 'insufficient_funds' // the buyer's token balance is below the amount
  | 'allowance_insufficient' // Permit2: the buyer's allowance to Permit2 is below the amount
  | 'authorization_used' // the authorization's nonce was used or cancelled
  | 'authorization_expired' // validBefore has passed
  | 'authorization_not_yet_valid' // validAfter is in the future
  | 'invalid_signature' // the token does not accept the signature (wrong signer, domain or form)
  | 'token_refused' // blacklisted account or paused token
  | 'transaction_reverted'; // any other revert

/**
 * FiatToken v2.2 (and OpenZeppelin ERC20) revert strings, and Permit2's errors by name (src/chain/evm.ts decodes
 * them), mapped to refusals; first match wins. Permit2's `TRANSFER_FROM_FAILED` says neither whether the allowance
 * or the balance was short: the chain's state says (src/chain/permit2.ts).
 */
const REVERTS: [RegExp, ChainRefusal][] = [
  [/authorization is used or canceled|^InvalidNonce\b/i, 'authorization_used'],
  [/authorization is expired|^SignatureExpired\b/, 'authorization_expired'],
  [/^(InvalidSigner|InvalidSignature|InvalidSignatureLength|InvalidContractSignature)\b/, 'invalid_signature'],
  [/authorization is not yet valid/i, 'authorization_not_yet_valid'],
  [/transfer amount exceeds balance|insufficient balance/i, 'insufficient_funds'],
  [/invalid signature|ECRecover|invalid signature (s|v) value/i, 'invalid_signature'],
  [/blacklisted|paused/i, 'token_refused'],
];

export function refusalOf(revertText: string): ChainRefusal {
  for (const [re, code] of REVERTS) if (re.test(revertText)) return code;
  return 'transaction_reverted';
}

/** The RPC node could not be asked (down, timing out, rate-limiting): retry later, never fail a payment for it. */
export class ChainUnavailable extends Error {}

/** Why confirm refuses an authorization: what the chain would say, or a contract wallet the operator does not accept. */
export type AuthorizationCheck =
  | { ok: true; signature: `0x${string}` }
  | {
      ok: false;
      /** Native-coin options: the buyer's transaction is unknown to the node yet, or is not this option's pay call. */
      refusal: ChainRefusal | 'contract_wallet_not_accepted' | 'approval_pending' | 'transaction_not_found' | 'transaction_mismatch';
      reason: string;
    };

/** Where and at what price the chain's own coin is paid on a chain (src/chain/nativeCoin.ts). */
export interface NativeTerms {
  router: string;
  /** How far (basis points) the price may move between the quote and fetch. */
  toleranceBps: number;
  /** The feed's latest round; `stale` when it is older than the feed's heartbeat. */
  price: { feed: string; roundId: bigint; answer: bigint; decimals: number; updatedAt: bigint; stale: boolean };
}

/** What a Permit2 option's check needs beyond its typed data: who signed, where the tokens go, the approve sent. */
export interface PermitContext {
  owner: string;
  to: string;
  /** The hash of the approve transaction the wallet sent for this option, if it sent one. */
  approveTx?: `0x${string}`;
}

/** What requests need from the chains: who submits an option's authorization, the checks before confirm, and the hand-off. */
export interface ChainWork {
  /**
   * The relayer key (EIP-55 address) that submits on this chain for a payment of `mode`, or null when this
   * instance cannot settle there (or the chain does not take that mode's payments: docs/testmode.md).
   */
  relayerFor(chainId: string, seed: string, mode: Mode): string | null;
  /**
   * The chains this instance settles on (CAIP-2), each with its relayer keys in use (EIP-55 addresses); with
   * `mode`, only those that take payments of that mode.
   */
  settlingChains(mode?: Mode): { chainId: string; relayers: string[] }[];
  /**
   * Before anything moves: the signature (ECDSA normalised to the form tokens accept, or ERC-1271 for
   * smart-contract wallets the operator accepts) and a simulation of the submission as it will be sent.
   * Throws ChainUnavailable when the node cannot be asked.
   */
  checkAuthorization(
    chainId: string,
    typedDataJson: string,
    signature: string,
    submitter: string,
    permit?: PermitContext,
  ): Promise<AuthorizationCheck>;
  /**
   * What a new relayer transaction on the chain offers now (the network's fees, under the ceiling). Throws
   * ChainUnavailable when the node cannot be asked.
   */
  fees(chainId: string): Promise<Fees>;
  /**
   * Every address this instance holds keys of on the chain (collectors and relayers, retired ones included), EIP-55;
   * null when this instance does not settle on the chain.
   */
  instanceAddresses(chainId: string): string[] | null;
  /** Whether the token's issuer blacklists `account` now. Throws ChainUnavailable when the node cannot be asked. */
  blacklisted(chainId: string, token: string, account: string): Promise<boolean>;
  /** Permit2 options: the owner's allowance of `token` to Permit2 now. Throws ChainUnavailable when the node cannot be asked. */
  permit2Allowance(chainId: string, token: string, owner: string): Promise<bigint>;
  /**
   * The chain's own coin where this instance offers it: its router and its price in `currency` now; null when the chain
   * has no router or no feed for the currency. Throws ChainUnavailable when the node cannot be asked.
   */
  nativeTerms(chainId: string, currency: string): Promise<NativeTerms | null>;
  /** "This payment was confirmed: move it on the chain": the submission starts here and now, or on the job queue. */
  startSubmit(paymentId: string): Promise<void>;
  /** "A refund of this payment was created": its refunds are sent, here and now or from the job queue. */
  startRefund(paymentId: string): Promise<void>;
  /** One of this instance's embedded development chains (anvil), whose node the test helpers may drive; else null. */
  developmentChain(chainId: string): DevelopmentChain | null;
}

/** What the test helpers make a development chain do (src/chain/devnetCheats.ts); throws ChainUnavailable when its node cannot be asked. */
export interface DevelopmentChain {
  /**
   * Drops the block holding the transaction (and the blocks after it, the other senders' transactions mined again):
   * `not_mined` when the chain holds no receipt of it, `final` when it is at the confirmation depth already. The
   * transaction's sender loses all its transactions of those blocks: `mayDrop` is asked first with the sender and
   * their nonces, and `refused` answers its no, with nothing changed.
   */
  reorgOut(
    txHash: string,
    mayDrop: (sender: string, nonces: number[]) => Promise<boolean>,
  ): Promise<'dropped' | 'not_mined' | 'final' | 'refused'>;
  /** Every token of the chain refuses `address` (`listed`) or accepts it again, in transactions mined before it resolves. */
  blacklist(address: string, listed: boolean): Promise<{ asset: string; txHash: string }[]>;
  /** This instance's own addresses on the chain (EIP-55): its relayer keys, retired ones included, and what its deployment holds. */
  ownAddresses(): string[];
  /** Fees no block takes now: half the latest block's base fee, no tip. */
  stalledFees(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }>;
}
