// An exact integer count of 10^-digits (money units, cents, rate units) as the JSON number text
// JSON.stringify writes for count / 10^digits, built from the integer's own digits. Up to 15
// significant digits a decimal is the shortest text that reads back as the double nearest it
// (no other decimal of as few digits reads back as that double), so the text here and
// JSON.stringify's agree; beyond 15 digits the quotient goes through JSON.stringify itself.

const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
const MAX_EXACT = 1e15

/** `digits`: 0 to 6 (a quotient of at least 10^-6 is written without an exponent). */
export function scaledNumberText(count: number, digits: number): string {
  if (count === 0) return '0'
  const scale = POWERS[digits]!
  if (!Number.isInteger(count) || !(count < MAX_EXACT && count > -MAX_EXACT)) return JSON.stringify(count / scale)
  const magnitude = count < 0 ? -count : count
  let fraction = magnitude % scale
  const whole = (magnitude - fraction) / scale
  const sign = count < 0 ? '-' : ''
  if (fraction === 0) return `${sign}${whole}`
  let places = digits
  while (fraction % 10 === 0) {
    fraction /= 10
    places--
  }
  return `${sign}${whole}.${String(fraction).padStart(places, '0')}`
}
