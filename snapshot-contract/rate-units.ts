// Rates are integers in units of 1e-5 (0.08625 → 8625). Parsing and formatting go through
// strings so no binary-float rounding ever reaches a stored rate.

export const RATE_SCALE_DIGITS = 5

export type ParsedRate = { ok: true; units: number } | { ok: false; reason: string }

const DECIMAL = /^(\d*)(?:\.(\d*))?$/

/** Parses a decimal fraction such as `0.0775` or `.06875` into 1e-5 units. */
export function parseRateFraction(text: string): ParsedRate {
  const trimmed = text.trim()
  const match = DECIMAL.exec(trimmed)
  if (!trimmed || !match || (match[1] === '' && !match[2])) {
    return { ok: false, reason: `not a decimal rate: ${JSON.stringify(text)}` }
  }
  const whole = match[1] || '0'
  const fraction = match[2] ?? ''
  const kept = fraction.slice(0, RATE_SCALE_DIGITS).padEnd(RATE_SCALE_DIGITS, '0')
  const dropped = fraction.slice(RATE_SCALE_DIGITS)
  if (/[1-9]/.test(dropped)) {
    return { ok: false, reason: `rate ${trimmed} has more precision than 1e-5` }
  }
  const units = Number(whole) * 10 ** RATE_SCALE_DIGITS + Number(kept)
  if (!Number.isSafeInteger(units)) return { ok: false, reason: `rate ${trimmed} out of range` }
  return { ok: true, units }
}

/** Parses a percentage such as `7.250` (meaning 7.25%) into 1e-5 units. */
export function parseRatePercent(text: string): ParsedRate {
  const trimmed = text.trim()
  const match = DECIMAL.exec(trimmed)
  if (!trimmed || !match) return { ok: false, reason: `not a percentage: ${JSON.stringify(text)}` }
  // Moving the decimal point two places left is exact on the digit string.
  const whole = (match[1] || '0').padStart(3, '0')
  const shifted = `${whole.slice(0, -2)}.${whole.slice(-2)}${match[2] ?? ''}`
  return parseRateFraction(shifted)
}

/**
 * Spreadsheets store rates as binary doubles (0.0775 reads back as 0.07749999999999999).
 * Rounding the shortest decimal representation to 5 places is the documented repair (CDTFA).
 */
export function rateUnitsFromSpreadsheetNumber(value: number): ParsedRate {
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    return { ok: false, reason: `spreadsheet rate ${value} is not a fraction between 0 and 1` }
  }
  return parseRateFraction(value.toFixed(RATE_SCALE_DIGITS))
}

// Every answer formats several rates, and the rates in force are few: each text is made once.
const formattedRates = new Map<number, string>()

/** Formats 1e-5 units as a 5-decimal string: 8625 → "0.08625". */
export function formatRate(units: number): string {
  let text = formattedRates.get(units)
  if (text === undefined) {
    if (!Number.isSafeInteger(units) || units < 0) throw new RangeError(`invalid rate units ${units}`)
    text = rateText(units)
    if (units < 10 ** RATE_SCALE_DIGITS) formattedRates.set(units, text)
  }
  return text
}

function rateText(units: number): string {
  const digits = String(units).padStart(RATE_SCALE_DIGITS + 1, '0')
  return `${digits.slice(0, -RATE_SCALE_DIGITS)}.${digits.slice(-RATE_SCALE_DIGITS)}`
}

/** Formats 1e-5 units as a percentage with 3 decimals: 7250 → "7.250". */
export function formatRatePercent(units: number): string {
  const digits = formatRate(units).replace('.', '')
  const whole = digits.slice(0, -3).replace(/^0+(?=\d)/, '')
  return `${whole}.${digits.slice(-3)}`
}
