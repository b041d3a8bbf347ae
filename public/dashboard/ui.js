// Small DOM helpers: every piece of text from the server goes in as a text node (never as HTML), so names, URLs and
// references cannot inject markup. Formatters for money, token amounts and times.

/** h('p', {class: 'x'}, 'text', child): an element. Attributes starting with `on` are listeners. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** An SVG element with attributes. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

let seq = 0;
/** A labelled input (or select/textarea when `control` is given): a <div class="field"> holding both. */
export function field(label, control, hint) {
  if (!control.id) control.id = 'f' + ++seq;
  const hintEl = hint ? h('span', { class: 'hint', id: control.id + '-hint' }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintEl);
}

export const input = (attrs) => h('input', { type: 'text', ...attrs });

export function select(attrs, options) {
  return h(
    'select',
    attrs,
    options.map(([value, text]) => h('option', { value }, text)),
  );
}

/** A place for messages: errors (role=alert) or notes (role=status). */
export function notice() {
  const el = h('div', { class: 'notice', role: 'status', 'aria-live': 'polite' });
  el.error = (e) => {
    el.className = 'notice error';
    el.textContent = (e && e.message) || String(e);
  };
  el.ok = (text) => {
    el.className = 'notice ok';
    el.textContent = text;
  };
  el.clear = () => {
    el.className = 'notice';
    el.textContent = '';
  };
  return el;
}

/** A form whose submit runs `fn(form)` with the button busy; errors go to its notice. */
export function form(attrs, children, fn) {
  const msg = notice();
  const f = h('form', { ...attrs, novalidate: false }, children, msg);
  f.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const buttons = f.querySelectorAll('button');
    buttons.forEach((b) => (b.disabled = true));
    msg.clear();
    try {
      await fn(f, msg);
    } catch (e) {
      msg.error(e);
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  });
  f.notice = msg;
  return f;
}

/** A button whose click runs `fn`, busy meanwhile; an error goes to `msg`. */
export function button(text, fn, attrs = {}, msg) {
  const b = h('button', { type: 'button', ...attrs }, text);
  b.addEventListener('click', async () => {
    b.disabled = true;
    msg?.clear();
    try {
      await fn(b);
    } catch (e) {
      if (msg) msg.error(e);
      else window.alert(e.message);
    } finally {
      if (b.isConnected) b.disabled = false;
    }
  });
  return b;
}

/** A table: columns [heading, (row) => cell]; an empty list shows `empty`. */
export function table(caption, columns, rows, empty = 'Nothing here yet.') {
  if (!rows.length) return h('p', { class: 'muted empty' }, empty);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', { class: 'sr-only' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map(([t]) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            columns.map(([t, cell]) => h('td', { 'data-label': t }, cell(r))),
          ),
        ),
      ),
    ),
  );
}

/** A secret shown once, with a copy button. */
export function secretBox(label, secret, id) {
  const code = h('code', { id, class: 'secret' }, secret);
  const copy = button('Copy', async (b) => {
    await navigator.clipboard.writeText(secret);
    b.textContent = 'Copied';
  });
  return h('div', { class: 'secret-box', role: 'status' }, h('p', {}, h('strong', {}, label)), code, ' ', copy);
}

const minorDigits = (cur) => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: cur }).resolvedOptions().maximumFractionDigits;
  } catch {
    return 2;
  }
};

/** "123456" with `digits` decimals → "1234.56". */
export function units(value, digits) {
  const neg = String(value).startsWith('-');
  const v = String(value)
    .replace('-', '')
    .padStart(digits + 1, '0');
  const whole = v.slice(0, v.length - digits);
  const frac = digits ? v.slice(v.length - digits) : '';
  return (neg ? '-' : '') + whole + (frac ? '.' + frac : '');
}

/** {unit: 'iso4217/USD', value: '123456'} → "$1,234.56". */
export function money(a) {
  if (!a) return '—';
  const cur = a.unit.replace('iso4217/', '');
  const n = Number(units(a.value, minorDigits(cur)));
  return new Intl.NumberFormat('en', { style: 'currency', currency: cur }).format(n);
}

export const currencyOf = (a) => a.unit.replace('iso4217/', '');
export const fiatDigits = minorDigits;

/** "12.50" in `cur` → minor units "1250", or null when not a positive amount. */
export function toMinor(text, cur) {
  const d = minorDigits(cur);
  const m = /^\s*(\d+)(?:[.,](\d+))?\s*$/.exec(text);
  if (!m || (m[2] || '').length > d) return null;
  const v = (m[1] + (m[2] || '').padEnd(d, '0')).replace(/^0+/, '');
  return v || null;
}

/** A token amount with display → "12.50 USDC". */
export function token(a) {
  if (!a) return '—';
  const d = a.display;
  if (!d) return a.value + ' (' + a.unit + ')';
  const t = units(a.value, d.decimals).replace(/(\.\d*?[1-9])0+$|\.0+$/, '$1');
  return t + ' ' + d.assetSymbol + (d.networkName ? ' on ' + d.networkName : '');
}

export function when(iso) {
  if (!iso) return '—';
  const t = typeof iso === 'number' ? new Date(iso * 1000) : new Date(iso);
  return t.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A transaction hash or long id: shown whole (wrapping), in monospace. */
export const mono = (text, attrs = {}) => (text ? h('code', { class: 'mono', ...attrs }, text) : '—');

export const badge = (status) => h('span', { class: 'badge badge-' + status }, status.replace(/_/g, ' '));

/** The page heading; the view's focus goes there after navigation. */
export const title = (text) => h('h1', { tabindex: '-1', id: 'page-title' }, text);
