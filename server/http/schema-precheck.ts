// A yes/no check compiled from a zod schema, run before zod on a request's values: a value it
// accepts is one zod accepts and returns unchanged, so zod's own parse (about as costly as the
// rest of reading a large order) is skipped; a value it refuses goes to zod, which then decides
// and words the 422 details. Only schemas whose parse returns its input as is can compile:
// objects (strict, or stripping — a key outside the shape then falls back to zod, which drops
// it), arrays with length limits, unions of primitives, optional, nullable, strings and numbers
// without checks, booleans, null, literals and enums. Anything else (coercion, defaults,
// transforms, refinements, formats) compiles to null: that schema is always parsed by zod.
import type { z } from 'zod'

export type Precheck = (value: unknown) => boolean

type Def = {
  type: string
  checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number; length?: number } } }[]
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
  options?: z.ZodType[]
  innerType?: z.ZodType
  element?: z.ZodType
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

const compiled = new WeakMap<z.ZodType, Precheck | null>()

/** The schema's precheck, compiled once; null when the schema cannot have one. */
export function precheckOf(schema: z.ZodType): Precheck | null {
  let check = compiled.get(schema)
  if (check === undefined) {
    check = compile(schema)
    compiled.set(schema, check)
  }
  return check
}

const PRIMITIVES = new Set(['string', 'number', 'boolean', 'null', 'literal', 'enum'])

// The definition fields each compiled kind may have; any other (a string format, coercion, an
// exclusive union…) changes what zod accepts or returns. `error` only words zod's messages.
const FIELDS: Record<string, readonly string[]> = {
  string: ['checks'],
  number: ['checks'],
  boolean: [],
  null: [],
  literal: ['values'],
  enum: ['entries'],
  optional: ['innerType'],
  nullable: ['innerType'],
  union: ['options'],
  array: ['element', 'checks'],
  object: ['shape', 'catchall'],
}

function compile(schema: z.ZodType): Precheck | null {
  const def = defOf(schema)
  const fields = FIELDS[def.type]
  if (!fields) return null
  for (const field in def) if (field !== 'type' && field !== 'error' && !fields.includes(field)) return null
  if (def.checks && def.checks.length > 0 && def.type !== 'array') return null
  switch (def.type) {
    case 'string':
      return (value) => typeof value === 'string'
    case 'number':
      return (value) => typeof value === 'number' && Number.isFinite(value)
    case 'boolean':
      return (value) => typeof value === 'boolean'
    case 'null':
      return (value) => value === null
    case 'literal':
    case 'enum': {
      // The set of values zod itself checks against.
      const values = (schema as unknown as { _zod: { values?: Set<unknown> } })._zod.values
      return values ? (value) => values.has(value) : null
    }
    case 'optional':
    case 'nullable': {
      const inner = compile(def.innerType!)
      if (!inner) return null
      const absent = def.type === 'optional' ? undefined : null
      return (value) => value === absent || inner(value)
    }
    case 'union': {
      // Only unions of primitives: zod answers the first option that accepts, and a primitive
      // comes back from every option unchanged.
      if (!def.options!.every((option) => PRIMITIVES.has(unwrapped(option)))) return null
      const options = def.options!.map(compile)
      if (options.some((option) => option === null)) return null
      return (value) => options.some((option) => option!(value))
    }
    case 'array':
      return compileArray(def)
    case 'object':
      return compileObject(def)
  }
  return null
}

const unwrapped = (schema: z.ZodType): string => {
  const def = defOf(schema)
  return def.type === 'optional' || def.type === 'nullable' ? unwrapped(def.innerType!) : def.type
}

function compileArray(def: Def): Precheck | null {
  const element = compile(def.element!)
  if (!element) return null
  let min = 0
  let max = Infinity
  for (const check of def.checks ?? []) {
    const { check: kind, minimum, maximum, length } = check._zod.def
    if (kind === 'min_length') min = Math.max(min, minimum!)
    else if (kind === 'max_length') max = Math.min(max, maximum!)
    else if (kind === 'length_equals') [min, max] = [Math.max(min, length!), Math.min(max, length!)]
    else return null
  }
  return (value) => {
    if (!Array.isArray(value) || value.length < min || value.length > max) return false
    for (let i = 0; i < value.length; i++) if (!element(value[i])) return false
    return true
  }
}

function compileObject(def: Def): Precheck | null {
  // A catchall other than never (strict) lets unknown keys through, parsed: not compiled.
  if (def.catchall && defOf(def.catchall).type !== 'never') return null
  const names = Object.keys(def.shape!)
  const checks: Record<string, Precheck> = Object.create(null)
  for (const name of names) {
    const check = compile(def.shape![name]!)
    if (!check) return null
    checks[name] = check
  }
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
    const fields = value as Record<string, unknown>
    let known = 0
    for (const name in fields) {
      const check = checks[name]
      if (check === undefined || !Object.hasOwn(fields, name) || !check(fields[name])) return false
      known++
    }
    if (known === names.length) return true
    // Fields left out must be allowed to be absent.
    for (const name of names) if (!Object.hasOwn(fields, name) && !checks[name]!(undefined)) return false
    return true
  }
}
