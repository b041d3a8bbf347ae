import { majorUnits } from '../../src/domain/money';
import { jsonNumber, stringifyJson } from '../../src/wire/jsonNumber';

// Money the hosted contract wants as a JSON number is written from its decimal digits (issue 45), never a float.

it('majorUnits writes minor units in the major unit, exactly and canonically', () => {
  expect(
    [
      [4050n, 2],
      [4000n, 2],
      [5n, 2],
      [0n, 2],
      [4050n, 0],
      [-4050n, 2],
      [10n ** 30n + 1n, 2],
    ].map(([m, e]) => majorUnits(m as bigint, e as number)),
  ).toEqual(['40.5', '40', '0.05', '0', '4050', '-40.5', '10000000000000000000000000000.01']);
});

it('stringifyJson writes a jsonNumber as its digits: beyond 2^53, nested, in arrays; no string can pass for one', () => {
  const body = { a: jsonNumber('9007199254740993'), b: [{ c: jsonNumber('40.5') }], s: 'x' };
  expect(stringifyJson(body)).toBe('{"a":9007199254740993,"b":[{"c":40.5}],"s":"x"}');
  // A string that looks like the placeholder of another process or run stays a string.
  const forged = { s: '\u0000deadbeef:0', n: jsonNumber('1') };
  expect(JSON.parse(stringifyJson(forged))).toEqual({ s: '\u0000deadbeef:0', n: 1 });
  // Outside stringifyJson (a log line) it is the decimal as a string, still exact.
  expect(JSON.stringify({ n: jsonNumber('0.05') })).toBe('{"n":"0.05"}');
  expect(() => jsonNumber('1e3')).toThrow();
  expect(() => jsonNumber('40.50')).toThrow();
});
