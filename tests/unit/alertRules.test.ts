import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ConcurrencyCap } from '../../src/http/rateLimit';

// The operator kit's files (ops/): the alert rules pass `promtool check rules` and their unit tests (ops/prometheus/
// tests.yml, one or more per alert, each firing and staying quiet), every alert has its runbook section in
// docs/alerts.md and its runbook line, and the Grafana dashboard is one whose every panel reads Prometheus. That every
// metric they name is exported is tests/integration/operatorKit.own.test.ts.

const root = path.resolve(__dirname, '../..');
const dir = path.join(root, 'ops/prometheus');
const rules = fs.readFileSync(path.join(dir, 'paygate-alerts.yml'), 'utf8');
const alerts = [...rules.matchAll(/^ {6}- alert: (\w+)$/gm)].map((m) => m[1]);

/** promtool, from Debian's prometheus package (make test installs it); its output when it fails. */
function promtool(...args: string[]): string {
  try {
    return execFileSync('promtool', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { code?: string; stdout?: string; stderr?: string };
    if (err.code === 'ENOENT') throw new Error('promtool is missing: make test (or make test-alerts) installs it', { cause: e });
    throw new Error(`promtool ${args.join(' ')} failed:\n${err.stdout}\n${err.stderr}`, { cause: e });
  }
}

describe('the alert rules and the dashboard (ops/)', () => {
  it('promtool accepts the rules, and their unit tests pass', () => {
    expect(promtool('check', 'rules', 'paygate-alerts.yml')).toContain(`SUCCESS: ${alerts.length} rules found`);
    expect(promtool('test', 'rules', 'tests.yml')).toContain('SUCCESS');
  });

  it('every alert fires in a unit test, and has a runbook line and a section in docs/alerts.md', () => {
    expect(alerts.length).toBeGreaterThanOrEqual(15);
    const tests = fs.readFileSync(path.join(dir, 'tests.yml'), 'utf8');
    const firing = new Set([...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts:/g)].map((m) => m[1]));
    const doc = fs.readFileSync(path.join(root, 'docs/alerts.md'), 'utf8');
    const sections = new Set([...doc.matchAll(/^### (\w+)$/gm)].map((m) => m[1]));
    for (const a of alerts) {
      const block = rules.slice(rules.indexOf(`- alert: ${a}\n`)).split(/\n {6}- alert: /)[0];
      expect({ a, fires: firing.has(a), section: sections.has(a), runbook: block.includes(`docs/alerts.md#${a.toLowerCase()}`) }).toEqual({
        a,
        fires: true,
        section: true,
        runbook: true,
      });
    }
  });

  it('the Grafana dashboard: every panel reads the Prometheus data source chosen on import', () => {
    const d = JSON.parse(fs.readFileSync(path.join(root, 'ops/grafana/paygate.json'), 'utf8'));
    expect(d.templating.list.map((v: { name: string; type: string }) => [v.name, v.type])).toEqual([['datasource', 'datasource']]);
    const panels = d.panels.filter((p: { type: string }) => p.type !== 'row');
    expect(panels.length).toBeGreaterThanOrEqual(20);
    for (const p of panels) {
      expect({ title: p.title, ds: p.datasource.uid }).toEqual({ title: p.title, ds: '${datasource}' });
      expect(p.targets.length).toBeGreaterThan(0);
      for (const t of p.targets) expect(t.expr).toMatch(/\b(paygate|process)_/);
    }
    expect(new Set(d.panels.map((p: { id: number }) => p.id)).size).toBe(d.panels.length);
  });
});

describe('ConcurrencyCap.fullest (paygate_longpoll_fullest_ratio)', () => {
  it('is the largest share of its cap one key holds, per kind; a released slot leaves it', () => {
    const cap = new ConcurrencyCap();
    const a = cap.acquire('credential:k1', 4);
    cap.acquire('credential:k1', 4);
    cap.acquire('credential:k2', 4);
    const ip = cap.acquire('ip:1.2.3.4', 2);
    expect(Object.fromEntries(cap.fullest())).toEqual({ credential: 0.5, ip: 0.5 });
    a();
    a(); // twice: released once
    ip();
    expect(Object.fromEntries(cap.fullest())).toEqual({ credential: 0.25 });
  });
});
