// A light long-poll client for bench/longpoll.mjs, run as its own process (fork with IPC): it opens `count`
// raw TCP connections, writes one prebuilt request on each, and timestamps the moment each full response
// (headers plus Content-Length bytes) has arrived, before looking at it. Node's http client parses each
// response on the bench's own event loop, on the same two cores as the service; this one does no work per
// response until the timestamps are taken, so what it measures is the service.
// Timestamps are process.hrtime (CLOCK_MONOTONIC): comparable with the parent's on the same machine.
import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');

process.once('message', ({ port, request, count, connectAtOnce }) => {
  const closeEach = /\r\nConnection: close\r\n/i.test(request);
  const arrivals = new Array(count).fill(0);
  const responses = new Array(count);
  let connected = 0;
  let done = 0;
  let errors = 0;
  const errorSamples = [];
  const requestBytes = Buffer.from(request);

  const open = (i) =>
    new Promise((resolve) => {
      const chunks = [];
      let got = 0;
      let need = -1; // total bytes of the response, once its headers are in
      const s = net.connect({ port, host: '127.0.0.1' }, () => {
        s.write(requestBytes);
        connected++;
        resolve();
      });
      s.setNoDelay(true);
      s.on('data', (c) => {
        chunks.push(c);
        got += c.length;
        if (need < 0) {
          const all = chunks.length === 1 ? c : Buffer.concat(chunks);
          const end = all.indexOf(HEADER_END);
          if (end < 0) return;
          const m = /\r\ncontent-length: *(\d+)/i.exec(all.subarray(0, end).toString('latin1'));
          need = end + 4 + (m ? Number(m[1]) : 0);
        }
        if (got >= need && !arrivals[i]) {
          arrivals[i] = Number(process.hrtime.bigint()) / 1e6;
          responses[i] = chunks;
          done++;
          if (closeEach) s.destroy(); // else the connection is left open, as a keep-alive client would
          if (done + errors === count) finish();
        }
      });
      s.on('error', (e) => {
        if (arrivals[i]) return;
        errors++;
        if (errorSamples.length < 5) errorSamples.push(e.message);
        resolve();
        if (done + errors === count) finish();
      });
    });

  const finish = () => {
    // Only now look at what arrived: the status line and the payment's status in the body.
    const statuses = {};
    for (const chunks of responses) {
      if (!chunks) continue;
      const text = Buffer.concat(chunks).toString('utf8');
      const code = text.slice(9, 12);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      const s = code === '200' ? JSON.parse(body).status : `http ${code}`;
      statuses[s] = (statuses[s] || 0) + 1;
    }
    process.send({ type: 'done', arrivals: arrivals.filter((t) => t > 0), statuses, errors, errorSamples }, () => process.exit(0));
  };

  // Connections are opened a batch at a time, so the service's accept backlog never overflows (a dropped
  // SYN is retried a second later, which would only measure the kernel).
  (async () => {
    for (let i = 0; i < count; i += connectAtOnce) {
      const batch = [];
      for (let j = i; j < Math.min(count, i + connectAtOnce); j++) batch.push(open(j));
      await Promise.all(batch);
    }
    process.send({ type: 'connected', connected, errors, errorSamples });
  })();
});
