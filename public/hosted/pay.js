// The gatewayUrl page: keeps the status live by long-polling /pay/<id>/status (the same long-poll as the
// gateway status operation) and, on a final state, sends the buyer to the shop's checkout URL if it gave one.
'use strict';
(function () {
  var el = document.getElementById('pay');
  if (!el) return;
  var statusEl = document.getElementById('status');
  var leaving = false;

  function leave(url) {
    if (!url || leaving) return;
    leaving = true;
    statusEl.textContent += ' Returning to the shop…';
    setTimeout(function () {
      window.location.assign(url);
    }, 1500);
  }
  function show(s) {
    statusEl.textContent = s.statusText;
    statusEl.setAttribute('data-status', s.status);
  }
  var sleep = function (ms) {
    return new Promise(function (r) {
      setTimeout(r, ms);
    });
  };

  async function follow() {
    var backoff = 0;
    for (;;) {
      try {
        var r = await fetch('/pay/' + encodeURIComponent(el.dataset.pid) + '/status?maxPollMs=25000', { cache: 'no-store' });
        if (r.status === 404) return;
        if (!r.ok) throw new Error('status ' + r.status);
        var s = await r.json();
        show(s);
        if (s.isFinal) return leave(s.redirectUrl);
        backoff = 0;
        // The server says when to ask again; a long-poll that returns early never turns into a busy loop.
        await sleep(Math.max(s.pollInMs || 0, 250));
      } catch (e) {
        backoff = Math.min(backoff ? backoff * 2 : 1000, 15000); // offline or restarting: retry, gently
        await sleep(backoff);
      }
    }
  }

  if (el.dataset.final === 'true') leave(el.dataset.redirect);
  else follow();
})();
