// The gatewayUrl page: keeps the status live by long-polling /pay/<id>/status (the same long-poll as the
// gateway status operation) and, on a final state, sends the buyer to the shop's checkout URL if it gave one.
// With a browser wallet (EIP-1193, window.ethereum) it also pays: the wallet's account, the payment's options for
// it (POST /pay/<id>/options), each action of the chosen option run by the wallet in order (a Permit2 approve with
// eth_sendTransaction, mined before the signature; then eth_signTypedData_v4; an ETH option's build action fetched,
// POST /pay/<id>/fetch, into the one eth_sendTransaction to the router, whose hash is the result), and confirm
// (POST /pay/<id>/confirm).
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
    if (s.status !== 'requires_action') document.getElementById('wallet').hidden = true; // nothing left to pay
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

  var wallet = document.getElementById('wallet');
  var eth = window.ethereum;
  var note = document.getElementById('wallet-note');
  var choices = document.getElementById('wallet-options');
  var payButton = document.getElementById('pay-wallet');
  var busy = false;
  function say(text) {
    note.textContent = text;
  }
  async function post(step, body) {
    var r = await fetch('/pay/' + encodeURIComponent(el.dataset.pid) + '/' + step, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    var json = await r.json().catch(function () {
      return {};
    });
    return { status: r.status, body: json, retryAfter: Number(r.headers.get('Retry-After') || 0) };
  }
  /** An amount in the token's smallest units, shown with its decimals and symbol (string arithmetic: no floats). */
  function tokenText(amount) {
    var d = (amount.display && amount.display.decimals) || 0;
    var v = String(amount.value).padStart(d + 1, '0');
    var whole = v.slice(0, v.length - d);
    var frac = d ? v.slice(v.length - d).replace(/0+$/, '') : '';
    var shown = whole + '.' + (frac.length < 2 ? (frac + '00').slice(0, 2) : frac);
    return shown + ' ' + ((amount.display && amount.display.assetSymbol) || '');
  }
  async function mined(hash) {
    for (var i = 0; i < 240; i++) {
      var receipt = await eth.request({ method: 'eth_getTransactionReceipt', params: [hash] });
      if (receipt) {
        if (receipt.status !== '0x1') throw new Error('The approval transaction failed in your wallet.');
        return;
      }
      await sleep(500);
    }
    throw new Error('The approval transaction is not mined yet; try again shortly.');
  }
  /** A build action's actions (an ETH option: its transaction to the router, the price read again). */
  async function fetched(option, action) {
    var f = await post('fetch', { optionId: option.id, data: action.data.data });
    if (f.status === 409 && (f.body.code === 'price_moved' || f.body.code === 'price_stale'))
      throw new Error('The price moved since it was quoted: connect your wallet again for a new quote.');
    if (f.status !== 200) throw new Error(f.body.message || 'The payment could not be prepared.');
    return f.body.actions;
  }
  /** The payment in the chain's own coin: the buyer's own transaction, sent by the wallet as fetched; its hash. */
  async function sendPayment(actions) {
    if (actions.length !== 1 || actions[0].type !== 'walletRpc' || actions[0].data.method !== 'eth_sendTransaction')
      throw new Error('The payment could not be prepared.');
    // The coin moves on whichever network the wallet is on: only on the option's (the wallet may have switched).
    var want = actions[0].data.chain_id;
    if ('eip155:' + parseInt(await eth.request({ method: 'eth_chainId' }), 16) !== want)
      throw new Error('Your wallet is on another network: switch it to chain ' + want.split(':')[1] + ', then pay again.');
    say('Send the payment in your wallet (you pay its gas)…');
    return { type: 'walletRpc', data: [await eth.request({ method: 'eth_sendTransaction', params: actions[0].data.params })] };
  }
  /** Runs each action in order: the results, one per action, as confirm takes them. */
  async function run(option) {
    var results = [];
    for (var i = 0; i < option.actions.length; i++) {
      if (option.actions[i].type === 'build') {
        say('Preparing the payment…');
        results.push(await sendPayment(await fetched(option, option.actions[i])));
        continue;
      }
      var a = option.actions[i].data;
      if (a.method === 'eth_sendTransaction') {
        say('Approve the token in your wallet (once per token; you pay its gas)…');
        var hash = await eth.request({ method: a.method, params: a.params }); // [{from, to, value, data}], as JSON-RPC
        say('Waiting for the approval to be mined…');
        await mined(hash);
        results.push({ type: 'walletRpc', data: [hash] });
      } else {
        say('Sign the payment in your wallet…');
        results.push({ type: 'walletRpc', data: [await eth.request({ method: a.method, params: a.params })] });
      }
    }
    return results;
  }
  async function pay(option) {
    if (busy) return;
    busy = true;
    try {
      var results = await run(option);
      say('Confirming…');
      for (var tries = 0; ; tries++) {
        var c = await post('confirm', { optionId: option.id, results: results });
        // An approve not mined yet, or a payment transaction the node does not show yet: ask again when told.
        var later = c.body.code === 'approval_pending' || c.body.code === 'transaction_not_found';
        if (c.status === 409 && later && tries < 30) {
          await sleep(Math.max(c.retryAfter, 1) * 1000);
          continue;
        }
        if (c.status !== 200) throw new Error(c.body.message || 'The payment could not be confirmed.');
        choices.replaceChildren();
        say('Submitted. The status below follows it.');
        return;
      }
    } catch (e) {
      say((e && e.message) || 'The wallet did not complete the payment.');
    } finally {
      busy = false;
    }
  }
  async function connect() {
    try {
      say('Connect your wallet…');
      var accounts = await eth.request({ method: 'eth_requestAccounts' });
      var chainId = parseInt(await eth.request({ method: 'eth_chainId' }), 16);
      if (!accounts || !accounts.length) throw new Error('The wallet gave no account.');
      var o = await post('options', { accounts: ['eip155:' + chainId + ':' + accounts[0]] });
      if (o.status !== 200) throw new Error(o.body.message || 'No payment options for this wallet.');
      // null: the payment is final (paid, failed, expired or cancelled) and nothing is left to pay.
      if (o.body.options === null) {
        say('Nothing left to pay.');
        return show(o.body);
      }
      if (!o.body.options.length) throw new Error('This payment cannot be paid on your wallet’s network (chain ' + chainId + ').');
      choices.replaceChildren();
      // Above the merchant's threshold the buyer's details come first, through the form of the link made for this page.
      var details = o.body.options
        .map(function (option) {
          return option.collectData && option.collectData.url;
        })
        .filter(Boolean)[0];
      if (details) {
        var link = document.createElement('a');
        link.id = 'wallet-details';
        link.href = details;
        link.target = '_blank';
        link.rel = 'noopener';
        link.textContent = 'First, give your details (opens a form), then pay:';
        choices.appendChild(link);
      }
      o.body.options.forEach(function (option) {
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'option';
        b.dataset.unit = option.amount.unit;
        b.textContent = 'Pay ' + tokenText(option.amount);
        b.addEventListener('click', function () {
          pay(option);
        });
        choices.appendChild(b);
      });
      say('Choose how to pay.');
    } catch (e) {
      say((e && e.message) || 'The wallet could not be connected.');
    }
  }

  if (el.dataset.final === 'true') leave(el.dataset.redirect);
  else {
    if (wallet && eth && typeof eth.request === 'function') {
      wallet.hidden = false;
      payButton.addEventListener('click', connect);
    }
    follow();
  }
})();
