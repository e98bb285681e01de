// The end of a freeform address: trailing country, ZIP and state, read right to left.
import { LONGEST_STATE_NAME_WORDS, STATE_CODES, matchState } from './state-names.ts'
import { findStreetEnd } from './street-end.ts'
import { DIRECTIONALS, NUMBER_TAKING_WORDS, STREET_SUFFIXES, isHouseNumber } from '../../../snapshot-contract/street-vocabulary.ts'
import { hasComma, type Token } from './tokens.ts'
import { hasFiveDigitBase, isZipShaped, readZip } from './zip-text.ts'

export type Span = { start: number; end: number }

export type AddressState =
  | (Span & { kind: 'code' | 'name'; code: string; text: string })
  | (Span & { kind: 'placeholder'; code: null; text: string })

export type AddressTail = {
  country: (Span & { text: string }) | null
  /** `text` is the ZIP as read, the two-word "98101 1234" joined with a hyphen */
  zip: (Span & { text: string }) | null
  state: AddressState | null
  /** tokens [0, remainderEnd) hold the street and city */
  remainderEnd: number
}

export type TailReading = { ok: true; tail: AddressTail } | { ok: false; reason: string }

const COUNTRY_PHRASES: ReadonlySet<string> = new Set(['UNITED STATES OF AMERICA', 'UNITED STATES', 'USA', 'US', 'U S A', 'U S'])
const LONGEST_COUNTRY_WORDS = 4

/** Stand-ins for "no state" that integrations put in the state position before a ZIP. */
const STATE_PLACEHOLDERS: ReadonlySet<string> = new Set(['N', 'M', '-', '--', '?', 'FALSE', 'NULL', 'NONE', 'XX', 'NA', 'N/A', 'UNDEFINED', 'UNKNOWN'])

const textOf = (tokens: readonly Token[], span: Span): string =>
  tokens.slice(span.start, span.end).map((t) => t.text).join(' ')

const commaInside = (tokens: readonly Token[], span: Span): boolean =>
  tokens.slice(span.start, span.end - 1).some((t) => hasComma(t.sep))

const followsWithoutComma = (tokens: readonly Token[], index: number): boolean => index > 0 && !hasComma(tokens[index - 1]!.sep)

/** "123 Oak Ct" ends in a suffix, not Connecticut; "123 Main St NE" ends in a directional, not Nebraska. */
function isStreetWord(tokens: readonly Token[], index: number): boolean {
  if (!followsWithoutComma(tokens, index)) return false
  const key = tokens[index]!.key
  if (DIRECTIONALS.has(key) && STREET_SUFFIXES.has(tokens[index - 1]!.key)) return true
  if (!STREET_SUFFIXES.has(key)) return false
  let partStart = index - 1
  while (partStart > 0 && !hasComma(tokens[partStart - 1]!.sep)) partStart--
  const part = tokens.slice(partStart, index).map((t) => t.key)
  return isHouseNumber(part[0]!) && findStreetEnd(part) === null
}

function stateEndingAt(tokens: readonly Token[], end: number): AddressState | null {
  for (let size = Math.min(LONGEST_STATE_NAME_WORDS, end); size >= 1; size--) {
    const span = { start: end - size, end }
    if (commaInside(tokens, span)) continue
    // "123 Main St W VA": the W is the street's directional, not West Virginia's.
    if (size > 1 && DIRECTIONALS.has(tokens[span.start]!.key) && isStreetWord(tokens, span.start)) continue
    const match = matchState(tokens.slice(span.start, end).map((t) => t.text))
    if (!match) continue
    if (size === 1 && isStreetWord(tokens, span.start)) return null
    return { ...span, kind: match.form, code: match.code, text: textOf(tokens, span) }
  }
  return null
}

function placeholderAt(tokens: readonly Token[], index: number): AddressState | null {
  const token = tokens[index]
  if (!token || !STATE_PLACEHOLDERS.has(token.key)) return null
  if (followsWithoutComma(tokens, index) && STREET_SUFFIXES.has(tokens[index - 1]!.key)) return null // "Main St N"
  return { start: index, end: index + 1, kind: 'placeholder', code: null, text: token.text }
}

/** "USA" on its own: nothing but a country. */
export const isOnlyCountry = (tokens: readonly Token[]): boolean =>
  tokens.length > 0 && COUNTRY_PHRASES.has(tokens.map((t) => t.key).join(' '))

function countryAtEnd(tokens: readonly Token[]): (Span & { text: string }) | null {
  for (let size = Math.min(LONGEST_COUNTRY_WORDS, tokens.length - 1); size >= 1; size--) {
    const span = { start: tokens.length - size, end: tokens.length }
    const phrase = tokens.slice(span.start).map((t) => t.key).join(' ')
    if (!COUNTRY_PHRASES.has(phrase)) continue
    const before = tokens[span.start - 1]!
    if (isZipShaped(before.key) || stateEndingAt(tokens, span.start)) return { ...span, text: textOf(tokens, span) }
  }
  return null
}

/** "Box 12345" holds a box number; "Miami FL 33101" a ZIP, though FL is also a floor designator. */
const takesNumber = (key: string): boolean => NUMBER_TAKING_WORDS.has(key) && !STATE_CODES.has(key)

type ZipSearch = { zip: (Span & { text: string }) | null } | { error: string }

/** A ZIP as the word(s) ending at `end`. Malformed ZIPs in ZIP position are errors, never content. */
function zipEndingAt(tokens: readonly Token[], end: number): ZipSearch {
  const last = tokens[end - 1]
  if (!last || !isZipShaped(last.key)) return { zip: null }
  const before = tokens[end - 2]
  if (before && takesNumber(before.key)) return { zip: null } // "PO Box 12345", "Hwy 101"
  if (before && /^\d{4}$/.test(last.key) && /^\d{5}$/.test(before.key) && !hasComma(before.sep)) {
    return { zip: { start: end - 2, end, text: `${before.key}-${last.key}` } }
  }
  const reading = readZip(last.key)
  if (reading.ok) return { zip: { start: end - 1, end, text: last.key } }
  // A malformed number is a ZIP error only where a ZIP belongs: a 5-digit start, or after a comma or state.
  const inZipPosition = hasFiveDigitBase(last.key) || (before !== undefined && (hasComma(before.sep) || stateEndingAt(tokens, end - 1) !== null))
  return inZipPosition ? { error: reading.reason } : { zip: null }
}

export function readAddressTail(tokens: readonly Token[]): TailReading {
  const country = countryAtEnd(tokens)
  const end = country ? country.start : tokens.length
  const zipSearch = zipEndingAt(tokens, end)
  if ('error' in zipSearch) return { ok: false, reason: zipSearch.error }
  let zip = zipSearch.zip
  const stateEnd = zip ? zip.start : end
  const state = stateEndingAt(tokens, stateEnd) ?? (zip ? placeholderAt(tokens, stateEnd - 1) : null)
  if (!zip && state && state.start > 0) {
    // "Seattle 98101, WA": the ZIP written before the state.
    const before = tokens[state.start - 1]!
    if (readZip(before.key).ok && !takesNumber(tokens[state.start - 2]?.key ?? '')) {
      zip = { start: state.start - 1, end: state.start, text: before.key }
    }
  }
  const remainderEnd = Math.min(state?.start ?? end, zip?.start ?? end, end)
  return { ok: true, tail: { country, zip, state, remainderEnd } }
}
