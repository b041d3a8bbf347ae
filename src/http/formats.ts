import { domainToASCII } from 'node:url';
import type Ajv from 'ajv';
import addFormats from 'ajv-formats';

// ajv-formats' `email` checks RFC 5321 syntax only. JSON Schema tools that implement `format: email`
// with IDNA (e.g. Schemathesis' validator) also refuse a domain with an `xn--` label that is not valid
// Punycode; the spec's pattern cannot express that, so the service checks it here, and every
// validator then agrees on what an e-mail address is.
const ACE_LABEL = /(^|\.)xn--/i;

export function addPaygateFormats(ajv: Ajv): void {
  addFormats(ajv);
  const rfc5321 = ajv.formats.email as RegExp;
  ajv.addFormat('email', {
    type: 'string',
    validate: (s: string) => {
      if (!rfc5321.test(s)) return false;
      const domain = s.slice(s.lastIndexOf('@') + 1);
      return !ACE_LABEL.test(domain) || domainToASCII(domain) !== '';
    },
  });
}
