import fs from 'node:fs';
import path from 'node:path';
import {
  concat,
  createWalletClient,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  hashTypedData,
  http,
  pad,
  serializeErc6492Signature,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetChain } from '../../src/chain/devnet';
import { DEVNET_CHAIN_ID } from '../../src/chain/devnetChains';
import { devnetSetBalance } from '../../src/chain/anvil';
import { chainClient, rpcUrl } from './chain';

// A counterfactual smart-contract wallet (ERC-6492) on a development chain: contracts/wallet/DevSmartWallet.sol
// (ERC-1271: its owner's signature of a hash is its own), deployed through the CREATE2 deployer anvil has at its
// well-known address, so its address is known before it exists. It signs typed data as wallets that are not deployed
// yet do: the owner's signature of the digest, wrapped with the factory call that deploys the wallet.

const ARTIFACT = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../contracts/wallet/DevSmartWallet.json'), 'utf8')) as {
  abi: Abi;
  bytecode: Hex;
};
/** Anvil's CREATE2 deployer (Arachnid's deterministic deployment proxy): calldata is the salt, then the init code. */
export const CREATE2_FACTORY: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

let salts = 0;

export interface SmartWallet {
  address: Address;
  owner: PrivateKeyAccount;
  factoryData: Hex;
  /** The owner's signature of the typed data's digest, wrapped for ERC-6492 (or, with `wrapped` false, not). */
  signTypedData(typedData: unknown, opts?: { wrapped?: boolean; by?: PrivateKeyAccount }): Promise<Hex>;
  /** Deploys the wallet (the owner sends the factory call) and makes the call through it, as a smart wallet runs eth_sendTransaction. */
  deployAndExecute(to: Address, data: Hex): Promise<Hex>;
  hasCode(): Promise<boolean>;
}

/** A new wallet (not deployed) owned by a new EOA, on the first development chain. */
export function newSmartWallet(): SmartWallet {
  const owner = privateKeyToAccount(generatePrivateKey());
  const initCode = concat([ARTIFACT.bytecode, encodeAbiParameters([{ type: 'address' }], [owner.address])]);
  const salt = pad(toHex(++salts));
  const address = getContractAddress({ opcode: 'CREATE2', from: CREATE2_FACTORY, salt, bytecode: initCode });
  const factoryData = concat([salt, initCode]);
  const url = rpcUrl(DEVNET_CHAIN_ID);
  const send = async (to: Address, data: Hex) => {
    const wallet = createWalletClient({ chain: devnetChain(url, DEVNET_CHAIN_ID), transport: http(url), account: owner });
    const hash = await wallet.sendTransaction({ to, data, gas: 1_000_000n });
    const receipt = await chainClient().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success') throw new Error(`${hash} reverted`);
    return hash;
  };
  const hasCode = async () => ((await chainClient().getCode({ address })) ?? '0x') !== '0x';
  return {
    address,
    owner,
    factoryData,
    hasCode,
    async signTypedData(typedData, opts = {}) {
      const signature = await (opts.by ?? owner).sign({ hash: hashTypedData(typedData as any) });
      if (opts.wrapped === false) return signature;
      return serializeErc6492Signature({ address: CREATE2_FACTORY, data: factoryData, signature });
    },
    async deployAndExecute(to, data) {
      await devnetSetBalance(url, owner.address);
      if (!(await hasCode())) await send(CREATE2_FACTORY, factoryData);
      return send(address, encodeFunctionData({ abi: ARTIFACT.abi, functionName: 'execute', args: [to, 0n, data] }));
    },
  };
}
