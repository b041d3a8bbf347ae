// The chain port: what the payment flow needs from a blockchain, whatever the adapter (simulated by
// default; a real one submits `transferWithAuthorization` through an RPC node with a relayer key).

export interface Eip3009Submission {
  paymentId: string;
  /** CAIP-2 chain id. */
  chainId: string;
  token: string;
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
  signature: string;
}

export type Confirmation = 'pending' | 'confirmed' | 'failed';

export interface ChainPort {
  /** Submits the authorization; idempotent per payment (a second call returns the first tx hash). */
  submit(s: Eip3009Submission): Promise<{ txHash: string }>;
  /** Where the transaction stands now. */
  confirmation(paymentId: string, txHash: string): Promise<Confirmation>;
}

/** What a request hands to the background: "this payment was confirmed, move it on the chain". */
export interface ChainWork {
  enqueueSubmit(paymentId: string): Promise<void>;
}
