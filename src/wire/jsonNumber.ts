import { randomBytes } from 'node:crypto';

// A JSON number the hosted contract requires where the service holds a decimal (money in a currency's major unit):
// written into the JSON text from its decimal digits, never through a binary float, so USD 4050 minor units are
// `40.5` and 2^53 + 1 stays 9007199254740993. Bodies are serialised by stringifyJson (src/http/sharedBody.ts).

const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;
/** Marks a number's place in JSON.stringify's output: a NUL and a random tag no request can know, so no string can forge it. */
const TAG = `\u0000${randomBytes(12).toString('hex')}:`;
const PLACE = new RegExp(`"${JSON.stringify(TAG).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');

/** The numbers of the stringifyJson running (JSON.stringify is synchronous: one at a time). */
let collecting: string[] | undefined;

class JsonNumber {
  constructor(readonly text: string) {}
  toJSON(): string {
    // Outside stringifyJson (a log line), the decimal as a string: still exact.
    if (!collecting) return this.text;
    collecting.push(this.text);
    return `${TAG}${collecting.length - 1}`;
  }
}

/**
 * `text`, a decimal, as a JSON number of a body. Typed as `number` because it stands where the contract has one;
 * it is not one: build it last, from the decimal, and never compute with it.
 */
export function jsonNumber(text: string): number {
  if (!DECIMAL.test(text)) throw new Error(`not a canonical decimal: ${text}`);
  return new JsonNumber(text) as unknown as number;
}

/** JSON.stringify, with each jsonNumber written as its decimal digits. */
export function stringifyJson(value: unknown): string {
  const outer = collecting;
  const numbers: string[] = [];
  collecting = numbers;
  try {
    const text = JSON.stringify(value);
    return numbers.length ? text.replace(PLACE, (_, i: string) => numbers[Number(i)]) : text;
  } finally {
    collecting = outer;
  }
}
