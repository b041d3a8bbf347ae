// The relayer's memory: nonces per (chain, sender) and every transaction it signed, stored before it is
// broadcast. A nonce is taken under a row lock in the same transaction that stores the signed bytes, so
// concurrent processes never sign two transactions for one nonce and a crash never leaves a nonce that
// nobody will send (the monitor re-broadcasts whatever is stored and not yet mined).
// One file per part: transactions.ts (the stored transaction, storing signed ones, reads), lifecycle.ts
// (broadcast, mined, reorged, final, replaced, nonce resync).

export * from './transactions';
export * from './lifecycle';
