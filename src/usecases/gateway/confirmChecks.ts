import { createHash } from 'node:crypto';
import { ChainUnavailable, type AuthorizationCheck, type ChainWork, type PermitContext } from '../../domain/chain';
import { AppError } from '../../domain/errors';
import type { StoredOption } from '../../db/optionsRepo';

// Confirm's checks on the chain (the signature, and the submission simulated), in this process. They ask the RPC
// node, which may take seconds, so they run before the request's transaction (a handler's `prepare`) and hold no
// database connection meanwhile (issue 28, finding 8; tests/integration/confirmChecks.own.test.ts). A wallet that
// confirms in a loop costs the node little: a refusal is remembered per option and signature for
// CONFIRM_REFUSAL_CACHE_MS and answered again from memory; the same check already running is joined, not repeated;
// and the checks that do ask the node are limited per payment and per credential (429 rate_limited). The gateway's
// confirm remembers a pass too (`rememberPass`): it only lets a racing confirm of the same option reach the
// transaction, where one conditional UPDATE decides, and the relayer simulates again before it sends. x402's
// verify does not: a payload passed a moment ago may have been settled since, and verify must say so.

/** Takes one check of `paymentId` by `credential` from the shared limits; throws 429 rate_limited beyond them. */
export type TakeCheck = (credential: string, paymentId: string) => Promise<void>;

/** Refusals that may pass a moment later (a transaction not mined, or not seen by the node, yet): never remembered. */
const WORTH_ASKING_AGAIN = new Set<string>(['approval_pending', 'transaction_not_found']);

/** Verdicts remembered at most; the oldest is forgotten first. */
const MAX_REMEMBERED = 10_000;

export class ConfirmChecks {
  private readonly verdicts = new Map<string, { verdict: AuthorizationCheck; until: number }>();
  private readonly running = new Map<string, Promise<AuthorizationCheck>>();

  constructor(
    private readonly chainWork: ChainWork,
    private readonly take: TakeCheck,
    private readonly refusalTtlMs: number,
  ) {}

  /**
   * The chain's verdict on `signature` for the option; throws 429 beyond the limits, and 503 service_unavailable
   * when the node cannot be asked (nothing is remembered then).
   */
  async check(
    opt: Pick<StoredOption, 'id' | 'paymentId' | 'chainId' | 'typedData'> & { relayer: string },
    signature: string,
    credential: string,
    { permit, rememberPass = false }: { permit?: PermitContext; rememberPass?: boolean } = {},
  ) {
    // The approve's hash is part of the question: an allowance refused without it may suffice with it.
    const key = `${opt.id} ${createHash('sha256')
      .update(`${signature} ${permit?.approveTx ?? ''}`)
      .digest('base64url')}`;
    const known = this.verdicts.get(key);
    if (known && known.until > Date.now()) return known.verdict;
    if (known) this.verdicts.delete(key);
    let check = this.running.get(key);
    if (!check) {
      check = (async () => {
        await this.take(credential, opt.paymentId);
        const r = await this.chainWork.checkAuthorization(opt.chainId, opt.typedData, signature, opt.relayer, permit);
        if (r.ok ? rememberPass : !WORTH_ASKING_AGAIN.has(r.refusal)) this.remember(key, r);
        return r;
      })().finally(() => this.running.delete(key));
      this.running.set(key, check);
    }
    try {
      return await check;
    } catch (e) {
      if (e instanceof ChainUnavailable)
        throw new AppError('service_unavailable', "The chain's RPC node cannot be reached; try again shortly.", undefined, {
          'Retry-After': '2',
        });
      throw e;
    }
  }

  private remember(key: string, verdict: AuthorizationCheck): void {
    if (this.refusalTtlMs <= 0) return;
    if (this.verdicts.size >= MAX_REMEMBERED) this.verdicts.delete(this.verdicts.keys().next().value!);
    this.verdicts.set(key, { verdict, until: Date.now() + this.refusalTtlMs });
  }
}
