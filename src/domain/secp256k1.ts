import * as ecc from 'tiny-secp256k1';
import { bytesToHex, hexToBytes, type Address, type Hex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';

// secp256k1 recovery and signing on the hot path of every payment (the buyer's signer recovered at confirm,
// each relayer transaction signed), by libsecp256k1 compiled to WebAssembly (tiny-secp256k1), several times
// faster than viem's own (@noble/curves, plain JavaScript BigInts; figures in docs/performance.md). Same curve,
// same deterministic nonces (RFC 6979), same low-s signatures: the bytes are those viem produces
// (tests/unit/secp256k1.test.ts compares them).

/** The address whose key made `signature` (r ‖ s ‖ v, 65 bytes, v 27/28 or 0/1) over `hash`; null if none does. */
export function recoverAddress(hash: Hex, signature: Hex): Address | null {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature) || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return null;
  const v = parseInt(signature.slice(130), 16);
  const recoveryId = v >= 27 ? v - 27 : v;
  if (recoveryId !== 0 && recoveryId !== 1) return null;
  let point: Uint8Array | null;
  try {
    point = ecc.recover(hexToBytes(hash), hexToBytes(`0x${signature.slice(2, 130)}`), recoveryId, false);
  } catch {
    return null; // r or s out of range, or zero
  }
  return point ? publicKeyToAddress(bytesToHex(point)) : null;
}

/** Signs a 32-byte hash: `r`, `s` (low) and the recovery bit, as viem's serializers take them. */
export function signHash(hash: Hex, privateKey: Uint8Array): { r: Hex; s: Hex; yParity: number } {
  const { signature, recoveryId } = ecc.signRecoverable(hexToBytes(hash), privateKey);
  return { r: bytesToHex(signature.subarray(0, 32)), s: bytesToHex(signature.subarray(32)), yParity: recoveryId };
}
