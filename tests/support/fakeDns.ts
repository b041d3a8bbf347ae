import dgram from 'node:dgram';
import { isIPv4 } from 'node:net';

// A DNS server on 127.0.0.1 (UDP) for the service's webhook resolver (WEBHOOK_DNS_SERVERS=127.0.0.1:<port>):
// each name either answers with the given addresses, or is black-holed (the query is read and never
// answered, like a zone whose servers are unreachable). Other names get NXDOMAIN. It counts the queries
// per name, so a test can tell whether the service asked at all.

export interface FakeDns {
  /** `127.0.0.1:<port>`, the form WEBHOOK_DNS_SERVERS takes. */
  server: string;
  /** Names answered with these addresses (A for IPv4, AAAA for IPv6). */
  records: Map<string, string[]>;
  /** Names never answered. */
  blackholed: Set<string>;
  /** Queries received per name (lower case, no trailing dot). */
  queries: Map<string, number>;
  close(): Promise<void>;
}

const A = 1;
const AAAA = 28;

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('latin1'));
    i += 1 + msg[i];
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ''] = address.split('::');
  const parts = (s: string) => (s ? s.split(':') : []);
  const h = parts(head);
  const t = address.includes('::') ? parts(tail) : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return Buffer.from(
    groups.flatMap((g) => {
      const n = parseInt(g, 16);
      return [n >> 8, n & 0xff];
    }),
  );
}

export async function startFakeDns(): Promise<FakeDns> {
  const socket = dgram.createSocket('udp4');
  const dns: FakeDns = {
    server: '',
    records: new Map(),
    blackholed: new Set(),
    queries: new Map(),
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
  socket.on('message', (msg, from) => {
    if (msg.length < 12) return;
    const { name, end } = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    dns.queries.set(name, (dns.queries.get(name) ?? 0) + 1);
    if (dns.blackholed.has(name)) return;
    const question = msg.subarray(12, end + 4);
    const known = dns.records.get(name);
    const answers = (known ?? [])
      .filter((a) => (qtype === A ? isIPv4(a) : qtype === AAAA ? !isIPv4(a) : false))
      .map((a) => {
        const rdata = qtype === A ? Buffer.from(a.split('.').map(Number)) : ipv6Bytes(a);
        const rr = Buffer.alloc(12);
        rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
        rr.writeUInt16BE(qtype, 2);
        rr.writeUInt16BE(1, 4); // IN
        rr.writeUInt32BE(60, 6);
        rr.writeUInt16BE(rdata.length, 10);
        return Buffer.concat([rr, rdata]);
      });
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0); // the query's id
    header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2); // a response, recursion available; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), from.port, from.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  dns.server = `127.0.0.1:${socket.address().port}`;
  return dns;
}
