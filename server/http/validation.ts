// Request validation through the route's zod schemas; failures become a 422 whose `detail`
// lists each zod issue as {loc, msg, type, input?, ctx?}. A value the schema's precheck accepts
// (schema-precheck.ts) is one zod returns unchanged, and is taken without parsing it again.
//
// `input` echoes the value as sent only while it stays small: a number, boolean or null as is, a
// string cut to its first 200 characters (then `…`), an array or object of at most 3 levels and
// 20 values in all; anything larger is left out. A body may nest thousands of levels deep
// (JSON.parse takes it), and serializing such a value again would overflow the stack.
import type { z } from 'zod'
import { HttpError } from '../base/errors.ts'
import { precheckOf } from './schema-precheck.ts'

export type Location = 'path' | 'query' | 'body'

export type ValidationDetail = { loc: (string | number)[]; msg: string; type: string; input?: unknown; ctx?: Record<string, unknown> }

export type Validated<T> = { ok: true; value: T } | { ok: false; detail: ValidationDetail[] }

export function validate<S extends z.ZodType>(schema: S, location: Location, raw: unknown): Validated<z.output<S>> {
  if (precheckOf(schema)?.(raw)) return { ok: true, value: raw as z.output<S> }
  const result = schema.safeParse(raw)
  if (result.success) return { ok: true, value: result.data }
  return { ok: false, detail: result.error.issues.map((issue) => detailOf(issue, location, raw)) }
}

function detailOf(issue: z.core.$ZodIssue, location: Location, raw: unknown): ValidationDetail {
  const { code, path, message, input: _input, ...rest } = issue as z.core.$ZodIssue & { input?: unknown }
  const detail: ValidationDetail = { loc: [location, ...path.map((p) => (typeof p === 'number' ? p : String(p)))], msg: message, type: code }
  // The value as sent, not as coerced: `lat=abc` reports "abc", not NaN.
  const sent = echoed(valueAt(raw, path))
  if (sent !== undefined) detail.input = sent
  const ctx = Object.fromEntries(
    Object.entries(rest)
      .filter(([key, value]) => key !== 'errors' && typeof value !== 'function')
      .map(([key, value]) => [key, typeof value === 'bigint' || value instanceof RegExp ? String(value) : value]),
  )
  if (Object.keys(ctx).length) detail.ctx = ctx
  return detail
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let at = value
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined
    at = (at as Record<PropertyKey, unknown>)[key]
  }
  return at
}

const ECHO_LIMITS = { chars: 200, depth: 3, values: 20 }

/** `value` as `input` may echo it (strings cut), or undefined when it is too large to echo. */
export function echoed(value: unknown): unknown {
  let values = 0
  const copy = (at: unknown, depth: number): unknown => {
    if (typeof at === 'string') return at.length > ECHO_LIMITS.chars ? `${at.slice(0, ECHO_LIMITS.chars)}…` : at
    if (at === null || typeof at !== 'object') return at
    if (depth === ECHO_LIMITS.depth) return undefined
    const entries = Array.isArray(at) ? at.entries() : Object.entries(at)
    const copied: [unknown, unknown][] = []
    for (const [key, item] of entries) {
      if (++values > ECHO_LIMITS.values) return undefined
      const inner = copy(item, depth + 1)
      if (inner === undefined && item !== undefined) return undefined
      copied.push([key, inner])
    }
    return Array.isArray(at) ? copied.map(([, item]) => item) : Object.fromEntries(copied as [string, unknown][])
  }
  return copy(value, 0)
}

/** Bounds the `input` of details not built by `validate` (see echoed). */
export function withEchoedInput(detail: ValidationDetail): ValidationDetail {
  if (!('input' in detail)) return detail
  const { input, ...rest } = detail
  const sent = echoed(input)
  return sent === undefined ? rest : { ...rest, input: sent }
}

export const validationError = (detail: ValidationDetail[]) =>
  new HttpError('VALIDATION_ERROR', 'The request has invalid values; see detail.', {}, {}, { detail: detail.map(withEchoedInput) })
