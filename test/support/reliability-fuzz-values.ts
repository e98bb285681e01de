// Hostile values for the fuzz test (fast-check arbitraries): strings that look almost right
// (impossible dates, NaN/Infinity, numbers in other scripts), unicode and lone surrogates,
// control characters, huge strings, and JSON of the wrong type or nested deep.
import fc from 'fast-check'

/** Deepest nesting sent: twice what JSON.stringify survives, and (6 bytes a level) within the fuzz's 64 KiB body limit. */
const MAX_JSON_DEPTH = 10_000

const IMPOSSIBLE_DATES = [
  '2026-02-30',
  '2026-02-29',
  '2025-02-29',
  '2026-13-01',
  '2026-00-10',
  '2026-04-31',
  '0000-01-01',
  '9999-12-31',
  '2026-1-1',
  '2026/02/30',
  '02/30/2026',
  '2026-02-30T25:61:61Z',
  '2026-11-21T00:00:00+99:00',
  '+275760-09-13',
  '-000001-01-01',
  '2026Q5',
  '20265',
  '2026Q0',
  '1970-01-01',
  '2026-11-21T12:00:00Z',
]

const NUMBER_LOOKALIKES = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e-400',
  '0x1F',
  '1_000',
  '١٢٣',
  '１２３',
  '19.999999',
  '-0',
  ' 19.99 ',
  '19,99',
  '$19.99',
  '9007199254740993',
  '.5',
  '5.',
  '+',
  '-',
  '',
  ' ',
]

export const TRAVERSALS = ['..', '%2e%2e', '..%2f..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fpackage.json', '..%5c..%5c', '%00', 'a%00b', '%zz', '%', '%c0%ae%c0%ae', '%252e%252e', '....//']

const controlString = fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 8 })
const hugeString = fc.integer({ min: 1_000, max: 40_000 }).map((n) => 'x'.repeat(n))

/** A string an attacker or a broken integration might send in any field. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...IMPOSSIBLE_DATES, ...NUMBER_LOOKALIKES, ...TRAVERSALS), weight: 6 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 2 },
  { arbitrary: controlString, weight: 2 },
  { arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'null', 'undefined', 'true', '[]', '{}', "'; DROP TABLE transactions; --", '${jndi:x}', '<script>'), weight: 2 },
  { arbitrary: hugeString, weight: 1 },
)

/** Nested arrays or objects `depth` levels deep, as JSON text. */
export const deepJsonText = fc
  .record({ depth: fc.integer({ min: 10, max: MAX_JSON_DEPTH }), objects: fc.boolean() })
  .map(({ depth, objects }) => (objects ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + ']'.repeat(depth)))

/** A JSON value of any type, hostile strings and extreme numbers included. */
export const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 6 },
  { arbitrary: fc.constantFrom(null, true, false, 0, -0, 1e308, -1e308, 5e-324, 2 ** 53 + 1, 1e21, -1, 0.1 + 0.2, 19.99, -19.99, 123456789.12345), weight: 3 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
)

/** A value for a query parameter (always text on the wire). */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileString, weight: 8 },
  { arbitrary: fc.constantFrom('30303', '30303-1234', '06103', '19901', '99999', '00000', '33.749', '-84.388', '90.0000001', '-180', 'full', 'simple', 'on', 'off', '0.1', 'ga', 'GA', 'Georgia', 'api', 'taxjar'), weight: 4 },
)
