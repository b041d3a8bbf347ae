import { hash, verify } from '@node-rs/argon2';

// Passwords of dashboard users: argon2id (memory-hard), its parameters in the stored hash (OWASP's minimum:
// 19 MiB, 2 passes), so they can be raised later without invalidating older hashes.

// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const OPTIONS = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/** A hash of no one's password: an unknown email is checked against it, so it takes as long as a known one. */
let dummy: Promise<string> | null = null;

/** Whether `password` is the one of `stored`; with no stored hash, checks a dummy one anyway and answers false. */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  const h = stored ?? (await (dummy ??= hashPassword('not the password of anyone at all')));
  try {
    const ok = await verify(h, password);
    return stored !== null && ok;
  } catch {
    return false;
  }
}
