// JSON Schema (2020-12, as zod's toJSONSchema writes it) → TypeScript type declarations. Covers
// what the API's schemas use: objects (properties, required, additionalProperties), arrays,
// unions (anyOf, oneOf, type lists), enum, const, $ref to named definitions, and descriptions as
// JSDoc. Anything else is `unknown`, which a response type may always be.
type Schema = Record<string, unknown>

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Declarations of named types, collected from any number of schemas; `source()` writes them. */
export class TypeDeclarations {
  readonly #declarations = new Map<string, string>()

  /**
   * Declares `name` as the type of `schema`, and each definition it refers to under its own name.
   * A name declared twice must declare the same type (else two schemas share an id).
   */
  declare(name: string, schema: Schema): void {
    const definitions = (schema.$defs ?? {}) as Record<string, Schema>
    for (const [id, definition] of Object.entries(definitions)) this.#add(id, definition)
    const { $defs: _definitions, $schema: _dialect, ...root } = schema
    if (root.$ref === `#/$defs/${name}` && Object.keys(root).length === 1) return
    this.#add(name, root)
  }

  #add(name: string, schema: Schema): void {
    const text = `${jsDoc(schema.description, '')}export type ${name} = ${typeOf(schema, '')}\n`
    const existing = this.#declarations.get(name)
    if (existing !== undefined && existing !== text) throw new Error(`two different schemas are named ${name}:\n${existing}\n${text}`)
    this.#declarations.set(name, text)
  }

  /** Every declaration, in name order. */
  source(): string {
    return [...this.#declarations.keys()].sort().map((name) => this.#declarations.get(name)).join('\n')
  }
}

function jsDoc(description: unknown, indent: string): string {
  if (typeof description !== 'string' || description === '') return ''
  return `${indent}/** ${description.replace(/\*\//g, '*\\/').replace(/\n/g, ' ')} */\n`
}

const literal = (value: unknown) => (typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value))

const union = (members: string[]) => {
  const distinct = [...new Set(members)]
  return distinct.length === 0 ? 'never' : distinct.join(' | ')
}

/** The type of one schema, written for a line indented by `indent`. */
function typeOf(schema: Schema, indent: string): string {
  if (typeof schema.$ref === 'string') {
    const match = /^#\/\$defs\/(.+)$/.exec(schema.$ref)
    if (!match) throw new Error(`cannot follow $ref ${schema.$ref}`)
    return match[1]
  }
  if ('const' in schema) return literal(schema.const)
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal))
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key]
    if (Array.isArray(members)) return union(members.map((member) => grouped(typeOf(member as Schema, indent))))
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((member) => grouped(typeOf(member as Schema, indent))).join(' & ')
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : null
  if (types === null) return 'unknown'
  return union(types.map((type) => typeOfType(type, schema, indent)))
}

function typeOfType(type: string, schema: Schema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array': {
      const items = schema.items as Schema | undefined
      if (Array.isArray(schema.prefixItems)) return `[${schema.prefixItems.map((item) => typeOf(item as Schema, indent)).join(', ')}]`
      return items ? `${grouped(typeOf(items, indent))}[]` : 'unknown[]'
    }
    case 'object':
      return objectType(schema, indent)
    default:
      return 'unknown'
  }
}

function objectType(schema: Schema, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>
  const required = new Set((schema.required ?? []) as string[])
  const inner = `${indent}  `
  const lines = Object.entries(properties).map(([name, property]) => {
    const key = IDENTIFIER.test(name) ? name : literal(name)
    return `${jsDoc(property.description, inner)}${inner}${key}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)}`
  })
  const extra = schema.additionalProperties
  if (extra !== undefined && extra !== false) {
    // Named properties must fit the index signature: with any, extra fields are only `unknown`.
    const value = lines.length > 0 || extra === true ? 'unknown' : typeOf(extra as Schema, inner)
    lines.push(`${inner}[field: string]: ${value}`)
  }
  if (lines.length === 0) return '{ [field: string]: unknown }'
  return `{\n${lines.join('\n')}\n${indent}}`
}

/** A union or intersection in parentheses, where it is an operand. */
function grouped(type: string): string {
  let depth = 0
  let quoted = false
  for (let i = 0; i < type.length; i++) {
    const c = type[i]
    if (quoted) {
      if (c === '\\') i++
      else if (c === "'") quoted = false
    } else if (c === "'") quoted = true
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++
    else if (c === '}' || c === ')' || c === ']' || c === '>') depth--
    else if (depth === 0 && (c === '|' || c === '&') && type[i - 1] === ' ') return `(${type})`
  }
  return type
}
