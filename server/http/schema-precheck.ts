// A yes/no check compiled from a zod schema, run before zod on a request's values: a value it
// accepts is one zod accepts and returns unchanged, so zod's own parse (about as costly as the
// rest of reading a large order) is skipped; a value it refuses goes to zod, which then decides
// and words the 422 details. Only schemas whose parse returns its input as is can compile:
// objects (strict, or stripping — a key outside the shape then falls back to zod, which drops
// it), arrays and strings with length limits, unions of primitives, optional, nullable, numbers
// without checks, booleans, null, literals and enums. Anything else (coercion, defaults,
// transforms, refinements, formats) compiles to null: that schema is always parsed by zod, except
// that an optional one accepts an absent value, which zod passes by without parsing it.
// It reads zod's `_zod` definitions, which a zod release may change: a definition it does not know,
// or internals of another shape, compile to null (zod parses, as without it), and
// test/schema-precheck.test.ts fails. The
// `make bench` lines "precheck / zod parse / ajv from /openapi.json" show what it buys
// (docs/decisions.md).
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
    check = compileOrNull(schema)
    compiled.set(schema, check)
  }
  return check
}

/** A zod release whose internals no longer have the shape read here gets no precheck, rather than a failed request. */
function compileOrNull(schema: z.ZodType): Precheck | null {
  try {
    return compile(schema)
  } catch {
    return null
  }
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

/** The schema's definition when every field of it is one its kind may have, and it has no checks but an array's length. */
function plainDef(schema: z.ZodType): Def | null {
  const def = defOf(schema)
  const fields = FIELDS[def.type]
  if (!fields) return null
  for (const field in def) if (field !== 'type' && field !== 'error' && !fields.includes(field)) return null
  if (def.checks && def.checks.length > 0 && def.type !== 'array' && def.type !== 'string') return null
  return def
}

/** A schema that puts a value in place of an absent one (a default). */
const fillsDefault = (schema: z.ZodType): boolean => (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'defaulted'

/** The length bounds of a string's or an array's checks; null when another check is among them. */
function lengthBounds(def: Def): { min: number; max: number } | null {
  let min = 0
  let max = Infinity
  for (const check of def.checks ?? []) {
    const { check: kind, minimum, maximum, length } = check._zod.def
    if (kind === 'min_length') min = Math.max(min, minimum!)
    else if (kind === 'max_length') max = Math.min(max, maximum!)
    else if (kind === 'length_equals') [min, max] = [Math.max(min, length!), Math.min(max, length!)]
    else return null
  }
  return { min, max }
}

function compileString(def: Def): Precheck | null {
  const bounds = lengthBounds(def)
  if (!bounds) return null
  const { min, max } = bounds
  return (value) => typeof value === 'string' && value.length >= min && value.length <= max
}

function compile(schema: z.ZodType): Precheck | null {
  const types = typesOf(schema)
  if (types) return typeCheck(types)
  const def = plainDef(schema)
  switch (def?.type) {
    case 'literal':
    case 'enum': {
      // The set of values zod itself checks against.
      const values = (schema as unknown as { _zod: { values?: Set<unknown> } })._zod.values
      return values ? (value) => values.has(value) : null
    }
    case 'optional':
    case 'nullable': {
      const absent = def.type === 'optional' ? undefined : null
      const inner = compile(def.innerType!)
      if (inner) return (value) => value === absent || inner(value)
      // zod's optional passes an absent value by without running its inner schema (unless that
      // one fills a default in), so it comes back unchanged whatever the inner one does to a value.
      return def.type === 'optional' && !fillsDefault(def.innerType!) ? (value) => value === undefined : null
    }
    case 'string':
      return compileString(def)
    case 'union': {
      // Only unions of primitives: zod answers the first option that accepts, and a primitive
      // comes back from every option unchanged.
      if (!def.options!.every((option) => PRIMITIVES.has(unwrapped(option)))) return null
      const options = def.options!.map(compile)
      if (options.some((option) => option === null)) return null
      return anyOf(options as Precheck[])
    }
    case 'array':
      return compileArray(def)
    case 'object':
      return compileObject(def)
  }
  return null
}

type JsType = 'string' | 'number' | 'boolean' | 'null' | 'undefined'

/** The JS types a schema made of plain strings, numbers, booleans and null (optional, nullable, in unions) accepts; null for any other schema. */
function typesOf(schema: z.ZodType): Set<JsType> | null {
  const def = plainDef(schema)
  switch (def?.type) {
    case 'string':
      return def.checks && def.checks.length > 0 ? null : new Set([def.type])
    case 'number':
    case 'boolean':
    case 'null':
      return new Set([def.type])
    case 'optional':
    case 'nullable': {
      const inner = typesOf(def.innerType!)
      inner?.add(def.type === 'optional' ? 'undefined' : 'null')
      return inner
    }
    case 'union': {
      const all = new Set<JsType>()
      for (const option of def.options!) {
        const types = typesOf(option)
        if (!types) return null
        for (const type of types) all.add(type)
      }
      return all
    }
  }
  return null
}

function typeCheck(types: ReadonlySet<JsType>): Precheck {
  const [string, number, boolean, nul, undef] = (['string', 'number', 'boolean', 'null', 'undefined'] as const).map((type) => types.has(type))
  return (value) => {
    switch (typeof value) {
      case 'string':
        return string!
      case 'number':
        // zod's number refuses NaN and the infinities
        return number! && Number.isFinite(value)
      case 'boolean':
        return boolean!
      case 'undefined':
        return undef!
      case 'object':
        return nul! && value === null
      default:
        return false
    }
  }
}

const unwrapped = (schema: z.ZodType): string => {
  const def = defOf(schema)
  return def.type === 'optional' || def.type === 'nullable' ? unwrapped(def.innerType!) : def.type
}

function compileArray(def: Def): Precheck | null {
  const element = compile(def.element!)
  const bounds = lengthBounds(def)
  if (!element || !bounds) return null
  const { min, max } = bounds
  return (value) => {
    if (!Array.isArray(value) || value.length < min || value.length > max) return false
    for (let i = 0; i < value.length; i++) if (!element(value[i])) return false
    return true
  }
}

function anyOf(options: Precheck[]): Precheck {
  return (value) => {
    for (let i = 0; i < options.length; i++) if (options[i]!(value)) return true
    return false
  }
}

function compileObject(def: Def): Precheck | null {
  // A catchall other than never (strict) lets unknown keys through, parsed: not compiled.
  if (def.catchall && defOf(def.catchall).type !== 'never') return null
  const names = Object.keys(def.shape!)
  const checks = new Map<string, Precheck>()
  for (const name of names) {
    const check = compile(def.shape![name]!)
    if (!check) return null
    checks.set(name, check)
  }
  const required = names.filter((name) => !checks.get(name)!(undefined))
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
    const fields = value as Record<string, unknown>
    let known = 0
    for (const name in fields) {
      const check = checks.get(name)
      if (check === undefined || !Object.hasOwn(fields, name) || !check(fields[name])) return false
      known++
    }
    if (known === names.length) return true
    for (const name of required) if (!Object.hasOwn(fields, name)) return false
    return true
  }
}
