// An exact integer count of 10^-digits (money units, cents, rate units) as the JSON number text
// JSON.stringify writes for count / 10^digits, built from the integer's own digits. Up to 15
// significant digits a decimal is the shortest text that reads back as the double nearest it
// (no other decimal of as few digits reads back as that double), so the text here and
// JSON.stringify's agree; beyond 15 digits the quotient goes through JSON.stringify itself.

const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
const MAX_EXACT = 1e15

// The decimal part of each fraction met, per number of digits (".5", ".0725"), indexed by the
// fraction: at most 10^digits of them, and in practice the prices' cents and the rates answers
// repeat. A scale's array is made when first used.
const SUFFIXES: (string | undefined)[][] = []

/** `digits`: 0 to 6 (a quotient of at least 10^-6 is written without an exponent). */
export function scaledNumberText(count: number, digits: number): string {
  if (count === 0) return '0'
  if (!Number.isInteger(count) || !(count < MAX_EXACT && count > -MAX_EXACT)) return JSON.stringify(count / POWERS[digits]!)
  if (count < 0) return `-${scaledNumberText(-count, digits)}`
  const scale = POWERS[digits]!
  const fraction = count % scale
  const whole = (count - fraction) / scale
  return fraction === 0 ? `${whole}` : `${whole}${suffixOf(fraction, digits)}`
}

function suffixOf(fraction: number, digits: number): string {
  const known = (SUFFIXES[digits] ??= new Array<string | undefined>(POWERS[digits]!).fill(undefined))
  let suffix = known[fraction]
  if (suffix === undefined) {
    let places = digits
    let significant = fraction
    while (significant % 10 === 0) {
      significant /= 10
      places--
    }
    suffix = `.${String(significant).padStart(places, '0')}`
    known[fraction] = suffix
  }
  return suffix
}
