// Rejections that come before any parsing: oversize fields and control characters.
import type { FieldError } from './types.ts'

const MAX_FIELD_LENGTH = 500

// Tab is whitespace to collapse; every other C0/C1 control (line breaks included) is refused.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F]/

export function checkFieldLimits(field: string, value: string): FieldError | null {
  if (value.length > MAX_FIELD_LENGTH) {
    return { ok: false, field, reason: `${field} is ${value.length} characters long; the limit is ${MAX_FIELD_LENGTH}` }
  }
  const control = CONTROL_CHARACTER.exec(value)
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
    return { ok: false, field, reason: `${field} contains a control character (U+${code})` }
  }
  return null
}

export function hasUsableContent(value: string): boolean {
  return /[\p{L}\p{N}]/u.test(value)
}
