import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  decodeErrorResult,
  decodeFunctionData,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  getAddress,
  hexToBytes,
  http,
  keccak256,
  parseAbi,
  parseSignature,
  serializeTransaction,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { ChainUnavailable, refusalOf, type ChainRefusal } from '../domain/chain';
import type { TransferAuthorization } from '../domain/eip3009';
import { PERMIT2_ABI, PERMIT2_ADDRESS, permitOfCall } from '../domain/permit2';
import { callsOf } from '../domain/multicall3';
import type { Fees } from '../domain/fees';
import { signHash } from '../domain/secp256k1';
import type { NativeCoin } from '../domain/nativeQuote';

// One EVM chain as the relayer sees it: an RPC node (requests batched per tick, bounded by a timeout) and
// the relayer keys. Reads and simulations only; nonces and the record of what was signed live in
// PostgreSQL (src/db/relayer/), so this holds no state that a crash could lose.

/** The EIP-3009 and ERC-20 functions the relayer calls (FiatToken v2.2 has both signature forms). */
export const TOKEN_ABI = parseAbi([
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

/** ERC-1271: a contract wallet's signature check; valid is its selector, left-aligned in the returned word. */
const ERC1271_ABI = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']);
const ERC1271_VALID = `0x1626ba7e${'0'.repeat(56)}`;

/**
 * The gas every verification and simulation is run with (eth_call, eth_estimateGas): a contract wallet's signature
 * check runs on the node at our request and may do anything within it, and a submission that needs more than this is
 * refused rather than sent. An authorization's transfer, a contract wallet's check included, needs far less.
 */
const CALL_GAS_LIMIT = 500_000n;
/** The gas a counterfactual wallet's deployment may take (ERC-6492): the relayer pays it, so it is bounded too. */
const DEPLOY_GAS_LIMIT = 1_000_000n;

/** A transaction's recipient and calldata, and the wei it carries (the chain's own coin sent onward; none when absent). */
export type ChainCall = { to: Address; data: Hex; value?: bigint };

export type Simulation = { ok: true; gas: bigint } | { ok: false; refusal: ChainRefusal; reason: string };

export type Broadcast = 'sent' | 'known' | 'nonce_too_low';

function unavailable(e: unknown): ChainUnavailable {
  const msg = e instanceof BaseError ? e.shortMessage : e instanceof Error ? e.message : String(e);
  return new ChainUnavailable(msg);
}

const PERMIT2_ERRORS = new Set(PERMIT2_ABI.filter((f) => f.type === 'error').map((f) => f.name));

/** The name of the Permit2 error a revert carries (its 4-byte selector in the RPC error's data), or null. */
function permit2Error(e: BaseError): string | null {
  const raw = e.walk((x) => /^0x[0-9a-fA-F]{8}/.test(String((x as { data?: unknown }).data))) as { data?: Hex } | null;
  if (!raw?.data) return null;
  try {
    const { errorName } = decodeErrorResult({ abi: PERMIT2_ABI, data: raw.data });
    return PERMIT2_ERRORS.has(errorName) ? errorName : null;
  } catch {
    return null;
  }
}

/** A revert (the node executed the call and it failed) rather than a node that could not answer. */
function revertText(e: unknown): string | null {
  if (!(e instanceof BaseError)) return null;
  const named = permit2Error(e);
  if (named) return named;
  const reverted = e.walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  if (reverted) return reverted.reason ?? reverted.shortMessage;
  const text = `${e.shortMessage} ${e.details ?? ''} ${e.message}`;
  return /revert|execution reverted|exceeds balance|invalid opcode|out of gas|gas required exceeds/i.test(text) ? text : null;
}

/** When the authorization a call executes expires (unix seconds): EIP-3009 validBefore, Permit2 deadline; else null. */
export function authorizationDeadline(data: Hex): bigint | null {
  // An all-or-none call (x402 paid to a deposit address): the buyer's authorization, its first call, expires first.
  const first = callsOf(data)?.[0];
  if (first) return authorizationDeadline(first.data);
  const permit = permitOfCall(data);
  if (permit) return permit.permit.deadline;
  try {
    const { functionName, args } = decodeFunctionData({ abi: TOKEN_ABI, data });
    return functionName === 'receiveWithAuthorization' || functionName === 'transferWithAuthorization' ? (args[4] as bigint) : null;
  } catch {
    return null;
  }
}

/**
 * The token call that executes an authorization: the v, r, s form for an ECDSA signature (every EIP-3009 token has
 * it), the bytes form (ERC-1271 smart-contract wallets, FiatToken v2.2+) otherwise, or when `bytesForm` says the
 * signature is a contract wallet's (an ERC-6492 wallet's inner signature).
 */
export function authorizationCall(td: TransferAuthorization, signature: Hex, bytesForm = false): ChainCall {
  const m = td.message;
  const functionName = td.primaryType === 'ReceiveWithAuthorization' ? 'receiveWithAuthorization' : 'transferWithAuthorization';
  const head = [getAddress(m.from), getAddress(m.to), BigInt(m.value), BigInt(m.validAfter), BigInt(m.validBefore), m.nonce] as const;
  let data: Hex;
  if (signature.length === 132 && !bytesForm) {
    const { r, s, yParity } = parseSignature(signature);
    const abi = TOKEN_ABI.filter((f) => f.name === functionName && f.inputs.length === 9);
    data = encodeFunctionData({ abi, functionName, args: [...head, 27 + yParity, r, s] } as never);
  } else {
    const abi = TOKEN_ABI.filter((f) => f.name === functionName && f.inputs.length === 7);
    data = encodeFunctionData({ abi, functionName, args: [...head, signature] } as never);
  }
  return { to: getAddress(td.domain.verifyingContract), data };
}

export class EvmChain {
  readonly pub: PublicClient;
  /** The relayer keys' bytes by address, retired ones included. */
  private readonly accounts = new Map<Address, Uint8Array>();
  private readonly retiredSet = new Set<Address>();
  /** The chain's own coin, where it is offered: its router and price feeds (src/chain/nativeCoin.ts). */
  native: NativeCoin | null = null;

  constructor(
    readonly caip2: string,
    readonly chainId: number,
    readonly rpcUrl: string,
    relayerKeys: Hex[],
    readonly confirmations: number,
    /** The fee ceiling: no transaction offers more per gas (CHAIN_<id>_MAX_FEE_PER_GAS_WEI). */
    readonly maxFeePerGas: bigint,
    readonly balanceFloorWei: bigint,
    retiredKeys: Hex[] = [],
    /** An embedded development chain (anvil): its node's cheats serve the test helpers (src/chain/devnetCheats.ts). */
    readonly development = false,
  ) {
    const chain = defineChain({
      id: chainId,
      name: caip2,
      nativeCurrency: { name: 'native', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    // Requests made in the same tick share one HTTP round trip (the monitor asks for many receipts).
    this.pub = createPublicClient({
      chain,
      transport: http(rpcUrl, { batch: { batchSize: 200, wait: 0 }, timeout: 10_000, retryCount: 1 }),
    }) as PublicClient;
    for (const k of relayerKeys) this.accounts.set(privateKeyToAddress(k), hexToBytes(k));
    for (const k of retiredKeys) {
      const address = privateKeyToAddress(k);
      if (this.accounts.has(address)) throw new Error(`relayer ${address} is configured both in use and retired on ${caip2}`);
      this.accounts.set(address, hexToBytes(k));
      this.retiredSet.add(address);
    }
  }

  /** The keys in use: new options name one of them. */
  get relayers(): Address[] {
    return this.held.filter((a) => !this.retiredSet.has(a));
  }

  /**
   * Every key this process holds, retired ones included: each is monitored, its open transactions confirmed
   * or replaced, and the settlements of what it collected are sent from it.
   */
  get held(): Address[] {
    return [...this.accounts.keys()];
  }

  holds(address: string): boolean {
    return this.accounts.has(getAddress(address));
  }

  /** Held to finish its work and be swept; never picked for a new option. */
  isRetired(address: string): boolean {
    return this.retiredSet.has(getAddress(address));
  }

  /** Spreads payments over the keys in use (stable per seed, so a repeated quote names the same key). */
  pickRelayer(seed: string): Address {
    const keys = this.relayers;
    return keys[Number(BigInt(keccak256(new TextEncoder().encode(seed))) % BigInt(keys.length))];
  }

  transferCall(token: string, to: string, amount: bigint): ChainCall {
    return {
      to: getAddress(token),
      data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [getAddress(to), amount] }),
    };
  }

  /**
   * Runs the call from `sender` as it would be submitted, with its value: offering `fees` (what the submission will
   * offer: a contract wallet may answer differently to another tx.gasprice), against the pending block, within
   * CALL_GAS_LIMIT. The gas it needs, or why it would fail.
   */
  async simulate(sender: Address, call: ChainCall, fees: Fees): Promise<Simulation> {
    const { to, data, value } = call;
    const request = { account: sender, to, data, value, gas: CALL_GAS_LIMIT, ...fees, blockTag: 'pending' } as const;
    try {
      const gas = await this.pub.estimateGas(request);
      return { ok: true, gas };
    } catch (e) {
      let text = revertText(e);
      if (text === null) throw unavailable(e);
      // estimateGas may not carry the reason: eth_call does.
      try {
        await this.pub.call(request);
      } catch (e2) {
        text = revertText(e2) ?? text;
      }
      return { ok: false, refusal: refusalOf(text), reason: text.slice(0, 300) };
    }
  }

  /**
   * The ERC-1271 check the token (or Permit2) makes of a smart-contract wallet (isValidSignature of the typed data's
   * `digest`), asked from `caller` as the submission will run: with its `fees`, against the pending block, within
   * CALL_GAS_LIMIT. EOAs are checked without the node.
   */
  async verifyContractSignature(wallet: string, digest: Hex, signature: Hex, caller: Address, fees: Fees): Promise<boolean> {
    const data = encodeFunctionData({ abi: ERC1271_ABI, functionName: 'isValidSignature', args: [digest, signature] });
    try {
      const r = await this.pub.call({
        account: caller,
        to: getAddress(wallet),
        data,
        gas: CALL_GAS_LIMIT,
        ...fees,
        blockTag: 'pending',
      });
      return (r.data ?? '0x').slice(0, 66).toLowerCase() === ERC1271_VALID;
    } catch (e) {
      if (revertText(e) !== null) return false;
      throw unavailable(e);
    }
  }

  /**
   * ERC-6492: `signature` (the factory call and the wallet's own signature) checked by the universal validator, which
   * deploys the wallet within the call and asks its isValidSignature; nothing is kept. Asked as verifyContractSignature
   * asks, with room for the deployment.
   */
  async verifyCounterfactualSignature(wallet: string, digest: Hex, signature: Hex, caller: Address, fees: Fees): Promise<boolean> {
    const data = encodeDeployData({
      abi: erc6492SignatureValidatorAbi,
      bytecode: erc6492SignatureValidatorByteCode,
      args: [getAddress(wallet), digest, signature],
    });
    try {
      const r = await this.pub.call({ account: caller, data, gas: CALL_GAS_LIMIT + DEPLOY_GAS_LIMIT, ...fees, blockTag: 'pending' });
      return r.data === '0x01';
    } catch (e) {
      if (revertText(e) !== null) return false;
      throw unavailable(e);
    }
  }

  /**
   * `first` (a wallet's deployment) and then `call`, from `sender`, as two transactions in a row would run (the node's
   * eth_simulateV1): the gas each needs, or why either would fail.
   */
  async simulateAfter(
    sender: Address,
    first: ChainCall,
    call: ChainCall,
    fees: Fees,
  ): Promise<{ ok: true; gas: bigint; firstGas: bigint } | Extract<Simulation, { ok: false }>> {
    const calls = [
      { ...first, gas: DEPLOY_GAS_LIMIT, ...fees },
      { ...call, gas: CALL_GAS_LIMIT, ...fees },
    ];
    try {
      const { results } = await this.pub.simulateCalls({ account: sender, calls, blockTag: 'pending' });
      const failed = results.find((r) => r.status !== 'success');
      if (!failed) return { ok: true, gas: results[1].gasUsed, firstGas: results[0].gasUsed };
      const text = (failed.error && revertText(failed.error)) ?? `reverted ${failed.data}`;
      return { ok: false, refusal: refusalOf(text), reason: text.slice(0, 300) };
    } catch (e) {
      throw unavailable(e);
    }
  }

  /**
   * Whether a call from a relayer key to `to` could act with the key's own authority: Permit2, a relayer key, or a
   * token (it answers balanceOf with a word). An ERC-6492 wallet's factory call is sent from the relayer: never to these.
   */
  async isPrivilegedTarget(to: Address): Promise<boolean> {
    if (getAddress(to) === PERMIT2_ADDRESS || this.holds(to)) return true;
    const data = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [this.held[0] ?? to] });
    try {
      return (await this.pub.call({ to: getAddress(to), data, blockTag: 'pending' })).data?.length === 66;
    } catch (e) {
      if (revertText(e) !== null) return false;
      throw unavailable(e);
    }
  }

  async hasCode(address: string): Promise<boolean> {
    try {
      return ((await this.pub.getCode({ address: getAddress(address) })) ?? '0x') !== '0x';
    } catch (e) {
      throw unavailable(e);
    }
  }

  private feeCache: { at: number; fees: Promise<Fees> } | null = null;

  /** The network's EIP-1559 fees now, what it asks of a new transaction (asked at most once a second: callers share them). */
  networkFees(): Promise<Fees> {
    if (this.feeCache && Date.now() - this.feeCache.at < 1000) return this.feeCache.fees;
    const fees = this.pub.estimateFeesPerGas().then(
      (f) => ({ maxFeePerGas: f.maxFeePerGas!, maxPriorityFeePerGas: f.maxPriorityFeePerGas! }),
      (e) => {
        this.feeCache = null;
        throw unavailable(e);
      },
    );
    this.feeCache = { at: Date.now(), fees };
    return fees;
  }

  /** What a new transaction offers: the network's fees, never above the ceiling. */
  async fees(): Promise<Fees> {
    const f = await this.networkFees();
    if (f.maxFeePerGas <= this.maxFeePerGas) return f;
    const maxFeePerGas = this.maxFeePerGas;
    return { maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas > maxFeePerGas ? maxFeePerGas : f.maxPriorityFeePerGas };
  }

  /** Signs locally (no node involved): the raw bytes and their hash are stored before anything is sent. */
  async sign(sender: Address, nonce: number, call: ChainCall, gas: bigint, fees: Fees): Promise<{ raw: Hex; hash: Hex }> {
    const key = this.accounts.get(sender);
    if (!key) throw new Error(`this process holds no key for relayer ${sender}`);
    // What viem's signTransaction does (sign the hash of the unsigned serialisation, serialise with the
    // signature), with the faster signer (domain/secp256k1.ts).
    const { to, data, value = 0n } = call;
    const tx = { type: 'eip1559', chainId: this.chainId, nonce, to, data, gas, value, ...fees } as const;
    const raw = serializeTransaction(tx, signHash(keccak256(serializeTransaction(tx)), key));
    return { raw, hash: keccak256(raw) };
  }

  async broadcast(raw: Hex): Promise<Broadcast> {
    try {
      await this.pub.sendRawTransaction({ serializedTransaction: raw });
      return 'sent';
    } catch (e) {
      const text = e instanceof BaseError ? `${e.shortMessage} ${e.details ?? ''}` : String(e);
      if (/already known|known transaction|already imported|AlreadyKnown/i.test(text)) return 'known';
      if (/nonce too low|nonce has already been used|NonceTooLow|transaction already mined/i.test(text)) return 'nonce_too_low';
      throw unavailable(e);
    }
  }

  async call<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      throw unavailable(e);
    }
  }

  /** The latest block's time (unix seconds): what an authorization's validBefore is judged against. */
  latestTime(): Promise<bigint> {
    return this.call(() => this.pub.getBlock({ blockTag: 'latest' })).then((b) => b.timestamp);
  }

  pendingNonce(address: Address): Promise<number> {
    return this.call(() => this.pub.getTransactionCount({ address, blockTag: 'pending' }));
  }

  async tokenBalance(token: string, holder: string): Promise<bigint> {
    return this.call(() =>
      this.pub.readContract({ address: getAddress(token), abi: TOKEN_ABI, functionName: 'balanceOf', args: [getAddress(holder)] }),
    );
  }

  nativeBalance(address: Address): Promise<bigint> {
    return this.call(() => this.pub.getBalance({ address }));
  }
}
