import { COLLECT_FIELDS, COLLECT_SCHEMA } from '../../domain/collectData';
import { formatFiat } from '../../domain/money';
import type { Payment } from '../../domain/payment';
import { esc } from './html';

// The data-collection page (`collectData.url` = `/collect?pid=…&accounts=…`): a form built from the
// collect-data fields and their JSON Schema. The browser enforces what HTML can say (required, pattern,
// lengths, date); collect.js adds the schema's anyOf (a place of birth or of residence); the server then
// validates with the same Ajv schema the gateway's confirm uses.

type Prop = { type: string; minLength?: number; maxLength?: number; pattern?: string; format?: string; const?: unknown };
const props = COLLECT_SCHEMA.properties as Record<string, Prop>;
const required = new Set(COLLECT_SCHEMA.required);
const HINTS: Record<string, string> = {
  pobCountry: 'Two-letter country code, e.g. DE',
  porCountry: 'Two-letter country code, e.g. FR',
  dob: 'YYYY-MM-DD',
};

function input(f: (typeof COLLECT_FIELDS)[number]): string {
  const p = props[f.id];
  const req = required.has(f.id) ? ' required' : '';
  if (f.type === 'checkbox' || p.type === 'boolean') {
    return `<label class="check"><input type="checkbox" name="${esc(f.id)}" id="f-${esc(f.id)}"${req}> ${esc(f.name)}</label>`;
  }
  const attrs = [
    `type="${f.type === 'date' || p.format === 'date' ? 'date' : 'text'}"`,
    `name="${esc(f.id)}"`,
    `id="f-${esc(f.id)}"`,
    p.minLength ? `minlength="${p.minLength}"` : '',
    p.maxLength ? `maxlength="${p.maxLength}"` : '',
    // HTML patterns are anchored already; the schema's ^…$ is kept as is (harmless inside the anchors).
    p.pattern ? `pattern="${esc(p.pattern)}"` : '',
    HINTS[f.id] ? `placeholder="${esc(HINTS[f.id])}"` : '',
    f.id.endsWith('Country') ? 'autocapitalize="characters"' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `<label for="f-${esc(f.id)}">${esc(f.name)}${req ? ' <span class="req">*</span>' : ''}</label>
<input ${attrs}${req}>`;
}

/** `token`: the collect link's (checked by the caller), posted back with the data. */
export function collectFormBody(p: Payment, merchantName: string, accounts: string[], token: string): string {
  return `<h1>Your details</h1>
<p class="muted">${esc(merchantName)} needs a few details for a payment of ${esc(formatFiat({ currency: p.currency, minor: p.amountMinor }))}.</p>
<form id="collect" method="post" action="/collect" data-pid="${esc(p.id)}" data-accounts="${esc(accounts.join(','))}" data-token="${esc(token)}">
${COLLECT_FIELDS.map(input).join('\n')}
<p class="muted">Give your place of birth (country and place) or your residence (country and address).</p>
<div id="errors" class="errors" role="alert" hidden></div>
<button type="submit">Send</button>
</form>
<p id="done" class="status ok" role="status" hidden>Thank you. Return to your wallet to finish the payment.</p>`;
}

export function collectClosedBody(message: string): string {
  return `<h1>Your details</h1>\n<p class="status" id="closed">${esc(message)}</p>`;
}
