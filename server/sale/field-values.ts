// A lenient field's value read (lenient-fields.ts): clean text, a state code, a 5-digit ZIP. Each
// reader reports a problem through `fail`, located by `loc`, and goes on, so a body's every
// problem is reported, not just the first.
import { stateCodeOf } from './state-code.ts'

const ZIP = /^(\d{3,5})(?:-?(\d{4}))?$/
const MAX_TEXT = 255

export type Fail = (loc: (string | number)[], msg: string, input?: unknown) => void

/** Trimmed text with control characters replaced by spaces; absent (null) when empty or not text. */
export function cleanText(value: unknown, loc: (string | number)[], fail: Fail): string | null {
  if (typeof value === 'number') value = String(value)
  if (typeof value !== 'string') return null
  // eslint-disable-next-line no-control-regex
  const cleaned = isTidy(value) ? value : value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  if (!cleaned) return null
  if (cleaned.length > MAX_TEXT) {
    fail(loc, `at most ${MAX_TEXT} characters`)
    return null
  }
  return cleaned
}

/** Printable ASCII without a space at either end, as nearly every value comes: nothing to clean. */
function isTidy(value: string): boolean {
  const last = value.length - 1
  if (last < 0 || value.charCodeAt(0) === 32 || value.charCodeAt(last) === 32) return false
  for (let i = 0; i <= last; i++) {
    const c = value.charCodeAt(i)
    if (c < 32 || c > 126) return false
  }
  return true
}

export function stateOf(value: string | null, loc: (string | number)[], required: boolean, fail: Fail): string | null {
  if (!value) {
    if (required) fail(loc, `${loc.at(-1)} is required`)
    return null
  }
  const code = stateCodeOf(value)
  if (!code) fail(loc, `${value} is not a US state, DC or PR`, value)
  return code
}

/** 5 digits; ZIP+4 is cut to 5; 3 or 4 digits are zero-padded (spreadsheets drop leading zeros). */
export function zipOf(value: unknown, loc: (string | number)[], required: boolean, fail: Fail): string | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (!text) {
    if (required) fail(loc, `${loc.at(-1)} is required`)
    return null
  }
  if (text.length === 5 && isDigits(text)) return text
  const m = ZIP.exec(text)
  if (!m) {
    fail(loc, `${loc.at(-1)} ${JSON.stringify(text)} is not a ZIP code (5 digits or ZIP+4)`, value)
    return null
  }
  return m[1].padStart(5, '0')
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}
