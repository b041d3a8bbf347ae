import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { mnemonicToAccount } from 'viem/accounts';
import { getContractAddress, parseTransaction, recoverTransactionAddress, toHex, type TransactionSerialized } from 'viem';
import { DEVNET_MNEMONIC_KEYS, devnetDeployer, proxyAdmin, tetherCreator } from '../../src/chain/devnet';
import { nativeDeployer } from '../../src/chain/nativeRouter';
import { permit2Code, permit2DomainSeparator } from '../../src/chain/permit2';
import { MULTICALL3_ADDRESS } from '../../src/domain/multicall3';

// The committed contract artifacts the development chains deploy are what their sources give.

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);

describe('development chain artifacts', () => {
  // Two Solidity compilations beside the integration suite on two cores: a minute was not always enough.
  it('the DevTetherToken, DevSmartWallet, PaygateRouter and DevPriceFeed artifacts are what their sources compile to', async () => {
    await expect(run('node', ['scripts/build-tether.mjs', '--check'], { cwd: root })).resolves.toBeDefined();
    const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'));
    const artifact = read('contracts/tether/DevTetherToken.json');
    const others = ['contracts/wallet/DevSmartWallet.json', 'contracts/router/PaygateRouter.json', 'contracts/pricefeed/DevPriceFeed.json'];
    expect([artifact.compiler, ...others.map((rel) => read(rel).compiler)]).toEqual([
      expect.stringMatching(/^solc 0\.4\.18\+/),
      ...others.map(() => artifact.compiler),
    ]);
    expect(others.map((rel) => read(rel).contract)).toEqual(['DevSmartWallet', 'PaygateRouter', 'DevPriceFeed']);
    // The check can fail: a copy of the script beside a changed artifact refuses it.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-check-'));
    fs.mkdirSync(path.join(tmp, 'scripts'));
    fs.mkdirSync(path.join(tmp, 'contracts/tether'), { recursive: true });
    fs.copyFileSync(path.join(root, 'scripts/build-tether.mjs'), path.join(tmp, 'scripts/build-tether.mjs'));
    fs.copyFileSync(path.join(root, 'contracts/tether/DevTetherToken.sol'), path.join(tmp, 'contracts/tether/DevTetherToken.sol'));
    fs.writeFileSync(
      path.join(tmp, 'contracts/tether/DevTetherToken.json'),
      JSON.stringify({ ...artifact, bytecode: `${artifact.bytecode}00` }),
    );
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(tmp, 'node_modules'));
    await expect(run('node', ['scripts/build-tether.mjs', '--check'], { cwd: tmp })).rejects.toMatchObject({ code: 1 });
    fs.rmSync(tmp, { recursive: true, force: true });
  }, 180_000);

  it("Permit2's cached domain separator is replaced by the one for the chain and the canonical address", () => {
    const artifact = JSON.parse(fs.readFileSync(path.join(root, 'contracts/permit2/Permit2.json'), 'utf8'));
    expect(artifact.origin).toEqual({
      package: '@uniswap/v4-periphery@1.0.3',
      file: 'lib/permit2/test/utils/DeployPermit2.sol',
      license: 'MIT',
    });
    expect((artifact.runtimeBytecode.length - 2) / 2).toBe(9152);
    for (const chainId of [31337, 31338]) {
      const code = permit2Code(chainId);
      expect(code.length).toBe(artifact.runtimeBytecode.length);
      expect(code).toContain(permit2DomainSeparator(chainId).slice(2));
      expect(code).not.toContain(artifact.cachedDomainSeparator31337.slice(2));
    }
  });

  it('Multicall3 is its pre-signed deployment: signed by its deployer at nonce 0, so deployed at the canonical address', async () => {
    const artifact = JSON.parse(fs.readFileSync(path.join(root, 'contracts/multicall3/Multicall3.json'), 'utf8'));
    const raw = artifact.rawTransaction as TransactionSerialized;
    const deployer = await recoverTransactionAddress({ serializedTransaction: raw });
    const tx = parseTransaction(raw);
    expect({ deployer, nonce: tx.nonce ?? 0, to: tx.to ?? null }).toEqual({ deployer: artifact.deployer, nonce: 0, to: null });
    expect(getContractAddress({ from: deployer, nonce: 0n })).toBe(MULTICALL3_ADDRESS);
    expect(artifact.address).toBe(MULTICALL3_ADDRESS);
  });

  it("the written-out development keys are those of anvil's mnemonic, and the deployers use them", () => {
    const mnemonic = 'test test test test test test test test test test test junk';
    for (const [index, key] of Object.entries(DEVNET_MNEMONIC_KEYS)) {
      const derived = mnemonicToAccount(mnemonic, { addressIndex: Number(index) });
      expect(toHex(derived.getHdKey().privateKey!)).toBe(key);
    }
    expect(Object.keys(DEVNET_MNEMONIC_KEYS)).toEqual(['0', '7', '8', '9']);
    expect(devnetDeployer.address).toBe(mnemonicToAccount(mnemonic, { addressIndex: 0 }).address);
    expect(nativeDeployer.address).toBe(mnemonicToAccount(mnemonic, { addressIndex: 7 }).address);
    expect(tetherCreator.address).toBe(mnemonicToAccount(mnemonic, { addressIndex: 8 }).address);
    expect(proxyAdmin.address).toBe(mnemonicToAccount(mnemonic, { addressIndex: 9 }).address);
  });
});
