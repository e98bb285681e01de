// zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1) via zod's own converter. Schemas named
// with `.meta({ id })` become shared components; every `#/$defs/X` is moved to
// `#/components/schemas/X` because inside an OpenAPI document `#` is the document, not the schema.
import * as z from 'zod'

type Json = Record<string, unknown>
export type Io = 'input' | 'output'

export class SchemaComponents {
  readonly schemas: Record<string, Json> = {}

  /** The JSON Schema of `schema`; request parts use `input`, responses `output`. */
  convert(schema: z.ZodType, io: Io): Json {
    const converted = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      // Response objects may grow new fields (api.md "Simple answer"): do not promise there are no others.
      override: (ctx) => {
        if (io === 'output' && ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties
      },
    }) as Json
    const defs = (converted.$defs ?? {}) as Record<string, Json>
    delete converted.$schema
    delete converted.$defs
    const names = new Map<string, string>()
    for (const [id, def] of Object.entries(defs)) names.set(id, this.#nameFor(id, relink(def, new Map()), io))
    for (const [id, def] of Object.entries(defs)) this.#register(names.get(id)!, relink(def, names))
    return relink(converted, names)
  }

  /** The schema behind a `$ref` produced by `convert`, or the schema itself. */
  resolve(schema: Json): Json {
    const ref = schema.$ref
    return typeof ref === 'string' ? this.schemas[ref.replace('#/components/schemas/', '')] ?? schema : schema
  }

  // A named schema whose request (input) form differs from its response (output) form, e.g.
  // because of defaults, is registered twice: `X` and `XInput`. Convert every response first.
  #nameFor(id: string, schema: Json, io: Io): string {
    const existing = this.schemas[id]
    if (!existing || JSON.stringify(existing) === JSON.stringify(schema) || io === 'output') return id
    return `${id}Input`
  }

  #register(name: string, schema: Json) {
    const existing = this.schemas[name]
    if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`two different schemas are named ${name}; give one of them another .meta({ id })`)
    }
    this.schemas[name] = schema
  }
}

function relink(value: Json, names: Map<string, string>): Json {
  return JSON.parse(JSON.stringify(value), (key, v) =>
    key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
      ? `#/components/schemas/${names.get(v.slice('#/$defs/'.length)) ?? v.slice('#/$defs/'.length)}`
      : v,
  ) as Json
}
