// Merchants: the entity that receives payments. Status transitions other than creation (active) are not
// exposed by the seed; soft deletion hides a merchant from listings and stops new payments.
import { isCursorTime } from './cursor';

export type MerchantStatus = 'active' | 'inactive' | 'suspended';

export interface Merchant {
  id: string;
  accountId: string;
  name: string;
  email: string | null;
  iconUrl: string | null;
  status: MerchantStatus;
  createdAt: Date;
  deletedAt: Date | null;
}

export interface CryptoSettlement {
  id: string;
  asset: string;
  destination: string;
}

export interface MerchantListQuery {
  status?: MerchantStatus;
  search?: string;
  after?: MerchantCursor;
  limit: number;
}

/** Position in the newest-first listing: createdAt (ISO, ms) then id, both descending. */
export interface MerchantCursor extends Record<string, unknown> {
  t: string;
  i: string;
}

export const isMerchantCursor = (v: unknown): v is MerchantCursor =>
  typeof v === 'object' &&
  v !== null &&
  isCursorTime((v as MerchantCursor).t) &&
  typeof (v as MerchantCursor).i === 'string' &&
  (v as MerchantCursor).i.length <= 64;

export const toIso = (d: Date) => d.toISOString();
