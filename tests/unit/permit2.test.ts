import { decodeFunctionData, hashTypedData, maxUint256, parseSignature, serializeSignature, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { authorizationDeadline } from '../../src/chain/evm';
import { refusalOf } from '../../src/domain/chain';
import { randomNonce } from '../../src/domain/eip3009';
import {
  approveTransaction,
  buildPermitTransferFrom,
  ERC20_ALLOWANCE_ABI,
  nonceBit,
  PERMIT2_ADDRESS,
  permitDigest,
  permitNonceHex,
  permitOfCall,
  permitTransferCall,
  verifyPermit,
} from '../../src/domain/permit2';
import { resultsOf } from '../../src/usecases/gateway/confirm';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const buyer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const other = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const USDT = '0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6';
const RELAYER = '0x52908400098527886E0F7030069857D2E4169EE7';
const nonce = randomNonce();
const permit = buildPermitTransferFrom({
  chainId: 31337,
  token: USDT,
  amount: 1_250_000n,
  spender: RELAYER,
  nonce,
  deadline: 1_900_000_000,
});
const json = JSON.stringify(permit);
const sign = (td = permit, by = buyer) => by.signTypedData({ ...td, message: td.message as never });

describe('Permit2 PermitTransferFrom typed data', () => {
  it("has the hosted service's plain form: Permit2 domain without version, no EIP712Domain type, decimal uint256", () => {
    expect(permit.primaryType).toBe('PermitTransferFrom');
    expect(permit.domain).toEqual({ name: 'Permit2', chainId: 31337, verifyingContract: PERMIT2_ADDRESS });
    expect(Object.keys(permit.types).sort()).toEqual(['PermitTransferFrom', 'TokenPermissions']);
    expect(permit.message).toEqual({
      permitted: { token: USDT, amount: '1250000' },
      spender: RELAYER,
      nonce: BigInt(nonce).toString(),
      deadline: '1900000000',
    });
    expect(permitNonceHex(BigInt(permit.message.nonce))).toBe(nonce);
  });

  it('hashes the same with EIP712Domain given in types, as some signers need it', () => {
    const withDomainType = {
      ...permit,
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        ...permit.types,
      },
    };
    expect(hashTypedData(withDomainType as never)).toBe(permitDigest(permit));
  });

  it("verifies the owner's signature of exactly the offered permit, and nothing else", async () => {
    const sig = await sign();
    expect(verifyPermit(json, buyer.address, sig)).toBe(true);
    expect(verifyPermit(json, other.address, sig)).toBe(false);
    expect(verifyPermit(json, buyer.address, await sign(permit, other))).toBe(false);
    const more = { ...permit, message: { ...permit.message, permitted: { token: USDT, amount: '1250001' } } };
    expect(verifyPermit(JSON.stringify(more), buyer.address, sig)).toBe(false);
    const otherSpender = { ...permit, message: { ...permit.message, spender: other.address } };
    expect(verifyPermit(JSON.stringify(otherSpender), buyer.address, sig)).toBe(false);
    expect(verifyPermit(json, buyer.address, '0x1234')).toBe(false);
    expect(verifyPermit('{not json', buyer.address, sig)).toBe(false);
  });

  it('accepts the high-s form of the same signature (normalised as for EIP-3009)', async () => {
    const p = parseSignature(await sign());
    const highS = serializeSignature({
      r: p.r,
      s: `0x${(N - BigInt(p.s)).toString(16).padStart(64, '0')}`,
      yParity: p.yParity === 0 ? 1 : 0,
    });
    expect(verifyPermit(json, buyer.address, highS)).toBe(true);
  });

  it('refuses amounts that are not positive and nonces not in the stored form', () => {
    const base = { chainId: 1, token: USDT, spender: RELAYER, deadline: 1 };
    expect(() => buildPermitTransferFrom({ ...base, amount: 0n, nonce })).toThrow(/positive/);
    expect(() => buildPermitTransferFrom({ ...base, amount: 1n, nonce: '0x12' as Hex })).toThrow(/nonce/);
  });

  it('locates the nonce in the bitmap: word nonce >> 8, bit nonce & 255', () => {
    expect(nonceBit(0x1ffn)).toEqual({ wordPos: 1n, mask: 1n << 255n });
    expect(nonceBit(3n)).toEqual({ wordPos: 0n, mask: 8n });
  });
});

describe('Permit2 calls', () => {
  it('permitTransferFrom carries the permit, the recipient, the whole amount and the owner; decoded back the same', async () => {
    const sig = await sign();
    const call = permitTransferCall(permit, buyer.address, other.address, sig);
    expect(call.to).toBe(PERMIT2_ADDRESS);
    expect(permitOfCall(call.data)).toEqual({
      permit: { token: USDT, amount: 1_250_000n, nonce: BigInt(nonce), deadline: 1_900_000_000n },
      owner: buyer.address,
      to: other.address,
    });
    expect(authorizationDeadline(call.data)).toBe(1_900_000_000n);
    expect(permitOfCall('0xa9059cbb')).toBeNull();
  });

  it("the buyer's approve: to the token, value 0, approve(Permit2, 2^256-1)", () => {
    const tx = approveTransaction(USDT.toLowerCase(), buyer.address.toLowerCase());
    expect(tx).toMatchObject({ from: buyer.address, to: USDT, value: '0x0' });
    const { functionName, args } = decodeFunctionData({ abi: ERC20_ALLOWANCE_ABI, data: tx.data });
    expect(functionName).toBe('approve');
    expect(args).toEqual([PERMIT2_ADDRESS, maxUint256]);
  });

  it("maps Permit2's errors to the refusals confirm and the failure codes use", () => {
    expect(refusalOf('InvalidNonce')).toBe('authorization_used');
    expect(refusalOf('SignatureExpired')).toBe('authorization_expired');
    expect(refusalOf('InvalidSigner')).toBe('invalid_signature');
    expect(refusalOf('InvalidContractSignature')).toBe('invalid_signature');
    expect(refusalOf('TRANSFER_FROM_FAILED')).toBe('transaction_reverted');
  });
});

describe("confirm's results", () => {
  const sig = `0x${'ab'.repeat(65)}`;
  const hash = `0x${'cd'.repeat(32)}`;
  const rpc = (...data: string[]) => ({ type: 'walletRpc', data });

  it('takes one result per action in order, or all packed into one entry', () => {
    expect(resultsOf({ optionId: 'o', results: [rpc(sig)] }, false)).toEqual({ signature: sig });
    expect(resultsOf({ optionId: 'o', results: [rpc(sig)] }, true)).toEqual({ signature: sig });
    expect(resultsOf({ optionId: 'o', results: [rpc(hash), rpc(sig)] }, true)).toEqual({ signature: sig, approveTx: hash });
    expect(resultsOf({ optionId: 'o', results: [rpc(hash, sig)] }, true)).toEqual({ signature: sig, approveTx: hash });
  });

  it('refuses anything else with 400 params_validation', () => {
    const bad = [
      { results: [], permit: true },
      { results: [rpc(hash), rpc(sig)], permit: false },
      { results: [rpc('0x12'), rpc(sig)], permit: true },
      { results: [rpc(hash), rpc(hash), rpc(sig)], permit: true },
      { results: [{ type: 'build', data: [sig] }], permit: true },
    ];
    for (const b of bad)
      expect(() => resultsOf({ optionId: 'o', results: b.results }, b.permit)).toThrow(
        expect.objectContaining({ code: 'params_validation', status: 400 }),
      );
  });
});
