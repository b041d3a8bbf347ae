import QRCode from 'qrcode';
import { formatFiat } from '../../domain/money';
import { effectiveStatus, isFinal, Payment, PaymentStatus } from '../../domain/payment';
import { esc, httpsUrl } from './html';

// The page behind `gatewayUrl` (`/?pid=pay_…`): who is paid, how much, the link as a QR code for a phone
// wallet, "Pay with wallet" for a browser wallet (shown by pay.js when there is one), and the status, kept live by
// pay.js long-polling /pay/<id>/status.

export const STATUS_TEXT: Record<PaymentStatus, string> = {
  requires_action: 'Waiting for payment',
  processing: 'Payment submitted, confirming…',
  succeeded: 'Paid. Thank you!',
  failed: 'The payment failed.',
  expired: 'This payment has expired.',
  cancelled: 'This payment was cancelled.',
};

/** Where the buyer goes after a final state, when the payment was created with checkout URLs (preview). */
export function redirectFor(p: Payment): string | null {
  const status = effectiveStatus(p);
  if (!p.checkout || !isFinal(status)) return null;
  return httpsUrl(status === 'succeeded' ? p.checkout.successUrl : p.checkout.errorUrl);
}

export async function payPageBody(p: Payment, merchant: { name: string; iconUrl: string | null }, gatewayUrl: string): Promise<string> {
  const status = effectiveStatus(p);
  const qr = await QRCode.toString(gatewayUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: 240 });
  const icon = httpsUrl(merchant.iconUrl);
  const initial = esc([...merchant.name.trim()][0]?.toUpperCase() ?? '?');
  return `<header class="merchant">
${icon ? `<img class="icon" src="${esc(icon)}" alt="" width="48" height="48" referrerpolicy="no-referrer">` : `<div class="icon initial" aria-hidden="true">${initial}</div>`}
<div><div class="muted">Pay</div><h1 id="merchant-name">${esc(merchant.name)}</h1></div>
</header>
<p class="amount" id="amount">${esc(formatFiat({ currency: p.currency, minor: p.amountMinor }))}</p>
<p class="muted">Reference ${esc(p.referenceId)}</p>
<figure class="qr" id="qr" aria-label="QR code of the payment link">${qr}</figure>
<p class="muted">Scan with your wallet, or open this link in it:</p>
<p class="link"><a id="link" href="${esc(gatewayUrl)}">${esc(gatewayUrl)}</a></p>
<section id="wallet" hidden>
<button type="button" id="pay-wallet">Pay with wallet</button>
<div id="wallet-options" class="options"></div>
<p class="muted" id="wallet-note" role="status" aria-live="polite"></p>
</section>
<p class="status" id="status" data-status="${esc(status)}" role="status" aria-live="polite">${esc(STATUS_TEXT[status])}</p>
<p class="muted" id="expires" data-expires="${p.expiresAt.getTime()}">Expires ${esc(p.expiresAt.toISOString().replace('T', ' ').slice(0, 16))} UTC</p>
<div id="pay" hidden data-pid="${esc(p.id)}" data-final="${isFinal(status)}" data-redirect="${esc(redirectFor(p) ?? '')}"></div>`;
}
