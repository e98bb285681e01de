// Money as exact integers. One unit is 1/10,000 of a dollar: four decimal places cover the
// sub-cent unit prices platforms send (e.g. "0.3333") and every order total. Values are read from
// their decimal text — a JSON number through its shortest round-trip text, which is the literal as
// written for anything up to 15 significant digits — and never through float arithmetic.
// More than four decimal places is refused rather than rounded, so nothing is silently changed.

export const MONEY_DECIMALS = 4
export const MONEY_SCALE = 10_000
const SCALE_BIG = 10_000n

/** Whole dollars kept below 10^11 so every unit count stays a safe JS integer (< 2^53). */
const MAX_INTEGER_DIGITS = 11
const MAX_WHOLE_DOLLARS = 10 ** MAX_INTEGER_DIGITS

export type MoneyParse = { ok: true; units: number } | { ok: false; reason: string }

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?$/

/** Parses a decimal string or JSON number into units of 1/10,000 dollar. */
export function parseMoney(input: unknown): MoneyParse {
  let text: string
  if (typeof input === 'number') {
    // A whole number of dollars needs no text: its units are an exact integer product.
    if (Number.isSafeInteger(input) && Math.abs(input) < MAX_WHOLE_DOLLARS) return { ok: true, units: input === 0 ? 0 : input * MONEY_SCALE }
    if (!Number.isFinite(input)) return { ok: false, reason: 'not a finite number' }
    text = String(input)
  } else if (typeof input === 'string') {
    text = input
  } else {
    return { ok: false, reason: 'expected a decimal number or a decimal string' }
  }
  const plain = plainUnits(text)
  if (plain !== null) return { ok: true, units: plain }
  text = text.trim()
  const match = DECIMAL.exec(text)
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
    return { ok: false, reason: `${JSON.stringify(text)} is not a plain decimal number (write e.g. "19.99")` }
  }
  const [, sign, whole, fraction = ''] = match
  const wholeDigits = whole.replace(/^0+/, '')
  const fractionDigits = fraction.replace(/0+$/, '')
  if (wholeDigits.length > MAX_INTEGER_DIGITS) return { ok: false, reason: `${text} is too large (at most ${MAX_INTEGER_DIGITS} digits before the point)` }
  if (fractionDigits.length > MONEY_DECIMALS) {
    return { ok: false, reason: `${text} has more than ${MONEY_DECIMALS} decimal places` }
  }
  const magnitude = Number((wholeDigits || '0') + fractionDigits.padEnd(MONEY_DECIMALS, '0'))
  return { ok: true, units: sign === '-' && magnitude !== 0 ? -magnitude : magnitude }
}

const POWERS = [1, 10, 100, 1_000, 10_000]

/**
 * The units of the common spelling, digits with at most four decimals ("19.99", "120", "0.3333"),
 * read digit by digit; null for anything else (a sign, spaces, more digits), which the pattern reads.
 */
function plainUnits(text: string): number | null {
  let units = 0
  let point = -1
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) units = units * 10 + (c - 48)
    else if (c === 46 && point === -1) point = i
    else return null
  }
  const whole = point === -1 ? text.length : point
  const decimals = point === -1 ? 0 : text.length - point - 1
  if (whole === 0 || whole > MAX_INTEGER_DIGITS || decimals > MONEY_DECIMALS) return null
  return units * POWERS[MONEY_DECIMALS - decimals]!
}

/**
 * Units as a decimal string with at least two and at most four decimals: 199900 → "19.99",
 * 199950 → "19.995", -50000 → "-5.00". Accepts bigint for sums; a safe integer is split with
 * integer operations only (remainder and exact division), a bigint with bigint ones.
 */
export function formatMoney(units: number | bigint): string {
  let negative: boolean
  let whole: string
  let fraction: number
  if (typeof units === 'number' && Number.isSafeInteger(units)) {
    negative = units < 0
    const magnitude = Math.abs(units)
    fraction = magnitude % MONEY_SCALE
    whole = String((magnitude - fraction) / MONEY_SCALE)
  } else {
    const value = BigInt(units)
    negative = value < 0n
    const magnitude = negative ? -value : value
    fraction = Number(magnitude % SCALE_BIG)
    whole = String(magnitude / SCALE_BIG)
  }
  // Two decimals always; the third and fourth only when not zero.
  const digits = String(fraction).padStart(MONEY_DECIMALS, '0')
  const kept = fraction % 100 === 0 ? digits.slice(0, 2) : fraction % 10 === 0 ? digits.slice(0, 3) : digits
  return `${negative ? '-' : ''}${whole}.${kept}`
}

/** Whole dollars (a threshold from the rules table) as units. */
export const dollarsToUnits = (dollars: number): bigint => BigInt(dollars) * SCALE_BIG
