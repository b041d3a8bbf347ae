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
import { TOKEN_ABI, type ChainCall, type EvmChain } from './evm';

// Whether the token itself refused a submission that reverted, from the token's own state at the block that mined it:
// paused, or its payer or payee blacklisted by the issuer (FiatToken's paused() and isBlacklisted()). Not from the
// revert's text, which a contract wallet's signature check could write. The state is the block's last: a pause mined
// before the submission in its block shows (an issuer's pause goes first with its higher fee); so does a pause after
// it in the same block, which nobody but the issuer can time. A token without these functions never refuses here.

const TOKEN_STATE = parseAbi(['function paused() view returns (bool)', 'function isBlacklisted(address account) view returns (bool)']);

/** What nodes answer when they no longer keep a block's state. */
const STATE_GONE = /missing trie node|state (is )?not available|historical state|pruned/i;

/** The token a submission moves, and its payer and payee (EIP-3009 or a Permit2 permit); null for any other call. */
function transferOf(call: ChainCall): { token: Address; parties: Address[] } | null {
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

/** True when the token refused any transfer of `call`'s parties at the end of block `blockNumber`. */
export async function tokenRefusedAt(chain: EvmChain, call: ChainCall, blockNumber: bigint): Promise<boolean> {
  const t = transferOf(call);
  if (!t) return false;
  const read = (q: { functionName: 'paused' } | { functionName: 'isBlacklisted'; args: [Address] }): Promise<boolean> =>
    chain.pub.readContract({ address: t.token, abi: TOKEN_STATE, blockNumber, ...q } as never).then(
      (r) => r === true,
      (e) => {
        // The token has no such function: it does not refuse for that reason. A node that no longer keeps the block's
        // state (pruned) cannot prove it either: the revert stays the payer's rather than being asked for forever.
        if (
          e instanceof BaseError &&
          e.walk((x) => x instanceof ContractFunctionRevertedError || x instanceof ContractFunctionZeroDataError)
        )
          return false;
        if (STATE_GONE.test((e as Error).message)) return false;
        throw new ChainUnavailable((e as Error).message);
      },
    );
  const answers = await Promise.all([
    read({ functionName: 'paused' }),
    ...t.parties.map((a) => read({ functionName: 'isBlacklisted', args: [a] })),
  ]);
  return answers.some(Boolean);
}
