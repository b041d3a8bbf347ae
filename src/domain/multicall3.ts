import { decodeFunctionData, encodeFunctionData, getAddress, parseAbi, type Address, type Hex } from 'viem';

// Multicall3 (github.com/mds1/multicall, MIT): one contract at the same address on every EVM chain, deployed from
// one pre-signed transaction (contracts/multicall3/Multicall3.json; src/chain/multicall3.ts puts it on a development
// chain). Its `aggregate3` runs calls in order in one transaction and, with `allowFailure: false`, reverts them all
// when one reverts: the relayer uses it where two token calls must happen together or not at all (src/domain/x402Deposit.ts).

export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

const ABI = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
]);

export interface InnerCall {
  to: Address;
  data: Hex;
}

/** One Multicall3 call that runs `calls` in order, all or none. */
export function allOrNone(calls: InnerCall[]): InnerCall {
  const data = encodeFunctionData({
    abi: ABI,
    functionName: 'aggregate3',
    args: [calls.map((c) => ({ target: getAddress(c.to), allowFailure: false, callData: c.data }))],
  });
  return { to: MULTICALL3_ADDRESS, data };
}

/** The calls an all-or-none Multicall3 call (its calldata) runs, or null when `data` is not one. */
export function callsOf(data: Hex): InnerCall[] | null {
  try {
    const { functionName, args } = decodeFunctionData({ abi: ABI, data });
    if (functionName !== 'aggregate3') return null;
    const inner = args[0];
    if (!inner.length || inner.some((c) => c.allowFailure)) return null;
    return inner.map((c) => ({ to: getAddress(c.target), data: c.callData }));
  } catch {
    return null;
  }
}
