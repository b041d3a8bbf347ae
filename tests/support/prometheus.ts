/** One sample of the Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the text exposition (version 0.0.4): every sample line, comments skipped. */
export function parseExposition(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the sample with this name whose labels include `labels`; 0 when there is none yet. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const s = samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s ? s.value : 0;
}

/** The value of a sample of the service's /metrics at `baseUrl` (0 when there is none). */
export async function scrapedValue(baseUrl: string, name: string): Promise<number> {
  return sampleValue(parseExposition(await (await fetch(`${baseUrl}/metrics`)).text()), name);
}
