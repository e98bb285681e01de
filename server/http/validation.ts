// Request validation through the route's zod schemas; failures become a 422 whose `detail`
// lists each zod issue as {loc, msg, type, input?, ctx?}.
import type { z } from 'zod'
import { HttpError } from './errors.ts'

export type Location = 'path' | 'query' | 'body'

export type ValidationDetail = { loc: (string | number)[]; msg: string; type: string; input?: unknown; ctx?: Record<string, unknown> }

export type Validated<T> = { ok: true; value: T } | { ok: false; detail: ValidationDetail[] }

export function validate<S extends z.ZodType>(schema: S, location: Location, raw: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(raw)
  if (result.success) return { ok: true, value: result.data }
  return { ok: false, detail: result.error.issues.map((issue) => detailOf(issue, location, raw)) }
}

function detailOf(issue: z.core.$ZodIssue, location: Location, raw: unknown): ValidationDetail {
  const { code, path, message, input: _input, ...rest } = issue as z.core.$ZodIssue & { input?: unknown }
  const detail: ValidationDetail = { loc: [location, ...path.map((p) => (typeof p === 'number' ? p : String(p)))], msg: message, type: code }
  // The value as sent, not as coerced: `lat=abc` reports "abc", not NaN.
  const sent = valueAt(raw, path)
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

export const validationError = (detail: ValidationDetail[]) =>
  new HttpError('VALIDATION_ERROR', 'The request has invalid values; see detail.', {}, {}, { detail })
