// The data-collection form: the browser checks what the HTML attributes say (required, pattern, lengths,
// date); this adds the schema's anyOf (a place of birth or of residence), then posts JSON to /collect,
// where the server validates again with the gateway's schema and shows its issues here.
'use strict';
(function () {
  var form = document.getElementById('collect');
  if (!form) return;
  var errors = document.getElementById('errors');
  var field = function (id) {
    return form.elements.namedItem(id);
  };
  var filled = function (id) {
    return field(id).value.trim() !== '';
  };

  function labelOf(pointer) {
    var id = String(pointer).split('/').pop();
    var label = document.querySelector('label[for="f-' + id + '"]') || (field(id) && field(id).parentElement);
    return label ? label.textContent.replace('*', '').trim() : 'Your details';
  }
  function showErrors(lines) {
    var ul = document.createElement('ul');
    lines.forEach(function (line) {
      var li = document.createElement('li');
      li.textContent = line;
      ul.appendChild(li);
    });
    errors.replaceChildren(ul);
    errors.hidden = false;
  }

  form.addEventListener('input', function () {
    field('pobCountry').setCustomValidity('');
  });
  form.addEventListener('submit', async function (ev) {
    ev.preventDefault();
    errors.hidden = true;
    if (!form.noValidate) {
      var place = (filled('pobCountry') && filled('pobAddress')) || (filled('porCountry') && filled('porAddress'));
      field('pobCountry').setCustomValidity(
        place ? '' : 'Give your place of birth (country and place) or your residence (country and address).',
      );
      if (!form.reportValidity()) return;
    }
    var data = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === 'checkbox') data[el.name] = el.checked;
      else if (el.value.trim() !== '') data[el.name] = el.value.trim();
    });
    var body;
    var r;
    try {
      r = await fetch('/collect', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ pid: form.dataset.pid, accounts: form.dataset.accounts, token: form.dataset.token, data: data }),
      });
      body = await r.json();
    } catch (e) {
      return showErrors(['The service could not be reached; try again.']);
    }
    if (r.ok) {
      form.hidden = true;
      document.getElementById('done').hidden = false;
      return;
    }
    showErrors(
      body.issues
        ? body.issues.map(function (i) {
            return labelOf(i.field) + ': ' + i.message;
          })
        : [body.message || 'Something went wrong; try again.'],
    );
  });
})();
