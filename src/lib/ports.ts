import fs from 'node:fs';
import net from 'node:net';

// Who holds a local port: what `make start` says when a port it needs is taken (docs/operations.md, "Ports").

/** A port this process needs is held by something that is not its own: the message names both and the setting. */
export class PortTaken extends Error {
  constructor(
    readonly setting: string,
    readonly port: number,
    holder: string,
    extra = '',
  ) {
    super(`${setting} ${port} is in use by ${holder}${extra}: stop that, or set ${setting} to a free port`);
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    const done = (v: boolean) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(1000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** Throws PortTaken when `host`:`port` cannot be bound now (someone listens there). */
export async function assertBindable(host: string, port: number, setting: string): Promise<void> {
  if (port === 0) return;
  const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    const server = net.createServer();
    server.once('error', (e) => resolve(e));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(null)));
  });
  if (error?.code === 'EADDRINUSE') throw new PortTaken(setting, port, describeHolder(port));
  if (error) throw new Error(`${setting} ${port} on ${host} cannot be used: ${error.message}`);
}

/** The listening sockets' inodes of `port` (Linux: /proc/net/tcp and tcp6). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A') continue; // 0A: LISTEN
      if (parseInt(f[1].split(':').pop()!, 16) === port) inodes.add(f[9]);
    }
  }
  return inodes;
}

/** The process listening on `port`: `pid 123 (postgres -D /x/.data/pg -p 54329)`, as far as this user may see it. */
export function describeHolder(port: number): string {
  const inodes = listeningInodes(port);
  if (inodes.size) {
    let pids: string[] = [];
    try {
      pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
    } catch {
      /* no /proc */
    }
    for (const pid of pids) {
      let fds: string[];
      try {
        fds = fs.readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue; // another user's process, or gone
      }
      for (const fd of fds) {
        let target: string;
        try {
          target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          continue;
        }
        const m = /^socket:\[(\d+)\]$/.exec(target);
        if (m && inodes.has(m[1])) return `pid ${pid} (${commandLine(pid)})`;
      }
    }
  }
  return 'a process this user cannot see (another user, or a container)';
}

function commandLine(pid: string): string {
  try {
    const line = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return line.length > 160 ? `${line.slice(0, 157)}...` : line;
  } catch {
    return 'unknown command';
  }
}
