import { keccak256, parseTransaction, recoverAddress as viemRecoverAddress, recoverTransactionAddress, toHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EvmChain } from '../../src/chain/evm';
import { recoverAddress, signHash } from '../../src/domain/secp256k1';

// The relayer's signer and confirm's recovery (libsecp256k1 in WebAssembly) against viem's own, which the rest
// of the ecosystem (wallets, the token's ecrecover semantics) agrees with: the same bytes, the same addresses.

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const hex32 = (n: bigint) => toHex(n, { size: 32 }).slice(2);

describe('secp256k1 (libsecp256k1 in WebAssembly) against viem', () => {
  it('recovers the address viem recovers, for v as 27/28 and as 0/1, over many keys and hashes', async () => {
    for (let i = 0; i < 40; i++) {
      const account = privateKeyToAccount(generatePrivateKey());
      const hash = keccak256(toHex(`message ${i} ${Math.random()}`));
      const signature = await account.sign({ hash });
      expect(recoverAddress(hash, signature)).toBe(account.address);
      expect(await viemRecoverAddress({ hash, signature })).toBe(account.address);
      const v = parseInt(signature.slice(130), 16);
      const zeroOne = `${signature.slice(0, 130)}${(v - 27).toString(16).padStart(2, '0')}` as Hex;
      expect(recoverAddress(hash, zeroOne)).toBe(account.address);
      // Another hash recovers another address, never the signer's.
      expect(recoverAddress(keccak256(hash), signature)).not.toBe(account.address);
    }
  });

  it('recovers nothing from what is no signature: wrong length, v out of range, r or s zero or not below n', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const hash = keccak256('0x01');
    const signature = await account.sign({ hash });
    const r = signature.slice(2, 66);
    const s = signature.slice(66, 130);
    expect(recoverAddress(hash, '0x1234')).toBeNull();
    expect(recoverAddress(hash, `${signature}00` as Hex)).toBeNull();
    expect(recoverAddress('0x01', signature)).toBeNull();
    for (const v of ['02', '1d', '1a', 'ff']) expect(recoverAddress(hash, `0x${r}${s}${v}`)).toBeNull();
    expect(recoverAddress(hash, `0x${hex32(0n)}${s}1b`)).toBeNull();
    expect(recoverAddress(hash, `0x${r}${hex32(0n)}1b`)).toBeNull();
    expect(recoverAddress(hash, `0x${hex32(N)}${s}1b`)).toBeNull();
    expect(recoverAddress(hash, `0x${r}${hex32(N + 1n)}1b`)).toBeNull();
  });

  it('signs exactly as viem does (RFC 6979 nonces, low s): the same r, s and recovery bit', async () => {
    for (let i = 0; i < 40; i++) {
      const key = generatePrivateKey();
      const hash = keccak256(toHex(`hash ${i} ${Math.random()}`));
      const mine = signHash(hash, Buffer.from(key.slice(2), 'hex'));
      const theirs = await privateKeyToAccount(key).sign({ hash });
      expect(`${mine.r}${mine.s.slice(2)}${(27 + mine.yParity).toString(16)}`).toBe(theirs);
      expect(BigInt(mine.s) <= N / 2n).toBe(true);
    }
  });

  it("the relayer's signed transaction is byte for byte viem's, from the relayer's address", async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const chain = new EvmChain('eip155:31337', 31337, 'http://127.0.0.1:1', [key], 1, 10n ** 11n, 0n);
    const call = { to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', data: '0xa9059cbb0011' } as const;
    const fees = { maxFeePerGas: 3_000_000_007n, maxPriorityFeePerGas: 1_000_000_001n };
    for (const nonce of [0, 1, 77, 123_456]) {
      const signed = await chain.sign(account.address, nonce, call, 91_234n, fees);
      const viemRaw = await account.signTransaction({
        type: 'eip1559',
        chainId: 31337,
        nonce,
        to: call.to,
        data: call.data,
        gas: 91_234n,
        value: 0n,
        ...fees,
      });
      expect(signed.raw).toBe(viemRaw);
      expect(signed.hash).toBe(keccak256(viemRaw));
      expect(await recoverTransactionAddress({ serializedTransaction: signed.raw as never })).toBe(account.address);
      expect(parseTransaction(signed.raw)).toMatchObject({ nonce, chainId: 31337, gas: 91_234n, ...fees });
    }
    await expect(chain.sign(privateKeyToAccount(generatePrivateKey()).address, 0, call, 1n, fees)).rejects.toThrow(/no key/);
  });
});
