// Daily volume (bars: succeeded payments' amounts) and success rate (line: succeeded of those that ended) per asset,
// drawn as inline SVG from a list of payments. The asset is the token the buyer paid with; a payment nobody paid
// counts under its currency ("USD, unpaid") so that the rate still sees it.
import { h, s, units, currencyOf, fiatDigits } from './ui.js';

const ENDED = new Set(['succeeded', 'failed', 'expired', 'cancelled']);
const W = 640;
const H = 220;
const PAD = { l: 56, r: 44, t: 16, b: 40 };

/** {asset: {currency, days: Map(day → {volume, succeeded, ended})}} */
function group(payments) {
  const out = new Map();
  for (const p of payments) {
    const cur = currencyOf(p.fiatAmount);
    const asset = p.tokenAmount?.display?.assetSymbol || cur + ', unpaid';
    const key = asset + ' (' + cur + ')';
    if (!out.has(key)) out.set(key, { asset, currency: cur, days: new Map() });
    const day = p.createdAt.slice(0, 10);
    const g = out.get(key).days;
    if (!g.has(day)) g.set(day, { volume: 0, succeeded: 0, ended: 0 });
    const d = g.get(day);
    if (p.status === 'succeeded') {
      d.volume += Number(units(p.fiatAmount.value, fiatDigits(cur)));
      d.succeeded += 1;
    }
    if (ENDED.has(p.status)) d.ended += 1;
  }
  return out;
}

function niceMax(v) {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((m) => m >= v);
}

function one(name, g, idx) {
  const days = [...g.days.keys()].sort().slice(-14);
  const fmt = new Intl.NumberFormat('en', { style: 'currency', currency: g.currency, notation: 'compact' });
  const vals = days.map((d) => g.days.get(d));
  const max = niceMax(Math.max(...vals.map((v) => v.volume)));
  const iw = W - PAD.l - PAD.r;
  const ih = H - PAD.t - PAD.b;
  const step = iw / days.length;
  const bw = Math.min(40, step * 0.6);
  const y = (v) => PAD.t + ih - (v / max) * ih;
  const yr = (r) => PAD.t + ih - r * ih;
  const id = 'chart-' + idx;
  const summary = days
    .map((d, i) => {
      const v = vals[i];
      const rate = v.ended ? Math.round((100 * v.succeeded) / v.ended) + '%' : 'no ended payments';
      return d + ': ' + fmt.format(v.volume) + ', success rate ' + rate;
    })
    .join('; ');
  const grid = [0, 0.5, 1].map((f) =>
    s(
      'g',
      { class: 'grid' },
      s('line', { x1: PAD.l, x2: W - PAD.r, y1: y(max * f), y2: y(max * f) }),
      s('text', { x: PAD.l - 6, y: y(max * f) + 4, 'text-anchor': 'end' }, fmt.format(max * f)),
      s('text', { x: W - PAD.r + 6, y: yr(f) + 4 }, Math.round(f * 100) + '%'),
    ),
  );
  const bars = days.map((d, i) => {
    const v = vals[i];
    const x = PAD.l + step * i + (step - bw) / 2;
    return s(
      'g',
      {},
      s(
        'rect',
        { class: 'bar', x, y: y(v.volume), width: bw, height: Math.max(0, PAD.t + ih - y(v.volume)) },
        s('title', {}, d + ': ' + fmt.format(v.volume)),
      ),
      s('text', { class: 'day', x: x + bw / 2, y: H - PAD.b + 16, 'text-anchor': 'middle' }, d.slice(5)),
    );
  });
  const pts = days
    .map((d, i) => [PAD.l + step * i + step / 2, vals[i].ended ? yr(vals[i].succeeded / vals[i].ended) : null])
    .filter(([, py]) => py !== null);
  const line = pts.length ? s('polyline', { class: 'rate', points: pts.map((p) => p.join(',')).join(' ') }) : null;
  const dots = pts.map(([px, py]) => s('circle', { class: 'rate-dot', cx: px, cy: py, r: 3.5 }));
  const svg = s(
    'svg',
    {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-labelledby': id + '-t ' + id + '-d',
      class: 'chart',
      preserveAspectRatio: 'xMidYMid meet',
    },
    s('title', { id: id + '-t' }, name + ': daily volume and success rate'),
    s('desc', { id: id + '-d' }, summary),
    grid,
    bars,
    line,
    dots,
  );
  return h('figure', { class: 'chart-figure', 'data-asset': g.asset }, h('figcaption', {}, name), svg);
}

export function volumeChart(payments) {
  if (!payments.length) return h('p', { class: 'muted' }, 'The chart appears once there are payments.');
  const groups = group(payments);
  return h(
    'div',
    { class: 'charts' },
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'key-bar' }),
      ' volume of succeeded payments  ',
      h('span', { class: 'key-rate' }),
      ' success rate of ended payments',
    ),
    [...groups].map(([name, g], i) => one(name, g, i)),
  );
}
