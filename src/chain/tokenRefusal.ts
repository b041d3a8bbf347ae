import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  decodeFunctionData,
  getAddress,
  parseAbi,
  type Address,
} from 'viem';
import { ChainUnavailable } from '../domain/chain';
import { permitOfCall } from '../domain/permit2';
import { callsOf, MULTICALL3_ADDRESS } from '../domain/multicall3';
import { TOKEN_ABI, type ChainCall, type EvmChain } from './evm';

// Whether the token itself refused a submission that reverted, from the token's own state at the block that mined it:
// paused, or its payer or payee blacklisted by the issuer (FiatToken's paused() and isBlacklisted()). Not from the
// revert's text, which a contract wallet's signature check could write. The state is the block's last: a pause mined
// before the submission in its block shows (an issuer's pause goes first with its higher fee); so does a pause after
// it in the same block, which nobody but the issuer can time. A token without these functions never refuses here.
// The same flags, read now, refuse a settlement destination the token would never pay (blacklistedNow).

const TOKEN_STATE = parseAbi([
  'function paused() view returns (bool)',
  'function isBlacklisted(address account) view returns (bool)',
  'function isBlackListed(address account) view returns (bool)',
  'function getBlackListStatus(address account) view returns (bool)',
]);

type StateQuery = { functionName: 'paused' } | { functionName: 'isBlacklisted' | 'isBlackListed' | 'getBlackListStatus'; args: [Address] };

/** What nodes answer when they no longer keep a block's state. */
const STATE_GONE = /missing trie node|state (is )?not available|historical state|pruned/i;

/** The token a submission moves, and its payer and payee (EIP-3009 or a Permit2 permit); null for any other call. */
function transferOf(call: ChainCall): { token: Address; parties: Address[] } | null {
  // An all-or-none call (x402 paid to a deposit address): the token its calls move, and every party of them.
  const inner = getAddress(call.to) === MULTICALL3_ADDRESS ? callsOf(call.data) : null;
  if (inner) {
    const each = inner.map(transferOf);
    if (each.some((t) => t === null || t.token !== each[0]!.token)) return null;
    return { token: each[0]!.token, parties: [...new Set(each.flatMap((t) => t!.parties))] };
  }
  const permit = permitOfCall(call.data);
  if (permit) return { token: permit.permit.token, parties: [permit.owner, permit.to] };
  try {
    const { functionName, args } = decodeFunctionData({ abi: TOKEN_ABI, data: call.data });
    if (functionName !== 'receiveWithAuthorization' && functionName !== 'transferWithAuthorization') return null;
    return { token: getAddress(call.to), parties: [getAddress(args[0]), getAddress(args[1])] };
  } catch {
    return null;
  }
}

/**
 * One of the token's refusal flags, at `blockNumber` (the latest block without). A token without the function does
 * not refuse for that reason; nor, at a past block, does one whose node no longer keeps that block's state (pruned):
 * a revert then stays the payer's rather than being asked for forever. Throws ChainUnavailable when the node cannot be asked.
 */
function tokenFlag(chain: EvmChain, token: Address, q: StateQuery, blockNumber?: bigint): Promise<boolean> {
  return chain.pub
    .readContract({ address: token, abi: TOKEN_STATE, ...(blockNumber === undefined ? {} : { blockNumber }), ...q } as never)
    .then(
      (r) => r === true,
      (e) => {
        if (
          e instanceof BaseError &&
          e.walk((x) => x instanceof ContractFunctionRevertedError || x instanceof ContractFunctionZeroDataError)
        )
          return false;
        if (blockNumber !== undefined && STATE_GONE.test((e as Error).message)) return false;
        throw new ChainUnavailable((e as Error).message);
      },
    );
}

/** True when the token refused any transfer of `call`'s parties at the end of block `blockNumber`. */
export async function tokenRefusedAt(chain: EvmChain, call: ChainCall, blockNumber: bigint): Promise<boolean> {
  const t = transferOf(call);
  if (!t) return false;
  const answers = await Promise.all([
    tokenFlag(chain, t.token, { functionName: 'paused' }, blockNumber),
    ...t.parties.map((a) => tokenFlag(chain, t.token, { functionName: 'isBlacklisted', args: [a] }, blockNumber)),
  ]);
  return answers.some(Boolean);
}

/**
 * Whether the token's issuer has blacklisted `account` now: FiatToken's (USDC, EURC) isBlacklisted, Tether's
 * isBlackListed or getBlackListStatus, whichever the token has. Throws ChainUnavailable when the node cannot be asked.
 */
export async function blacklistedNow(chain: EvmChain, token: string, account: string): Promise<boolean> {
  const [t, a] = [getAddress(token), getAddress(account)];
  const names = ['isBlacklisted', 'isBlackListed', 'getBlackListStatus'] as const;
  const answers = await Promise.all(names.map((functionName) => tokenFlag(chain, t, { functionName, args: [a] })));
  return answers.some(Boolean);
}
