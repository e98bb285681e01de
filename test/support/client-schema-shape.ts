// A zod schema's JSON Schema with references inlined and documentation removed: two schemas that
// accept the same values compare equal, whatever their descriptions and component ids.
import * as z from 'zod'

const DOCUMENTATION = new Set(['$schema', '$defs', 'id', 'title', 'description', 'examples'])

export function schemaShape(schema: z.ZodType, io: 'input' | 'output' = 'output'): unknown {
  const json = z.toJSONSchema(schema, { io }) as { $defs?: Record<string, unknown> }
  const definitions = json.$defs ?? {}
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline)
    if (node === null || typeof node !== 'object') return node
    const ref = (node as { $ref?: unknown }).$ref
    if (typeof ref === 'string') return inline(definitions[ref.replace('#/$defs/', '')])
    return Object.fromEntries(Object.entries(node).filter(([key]) => !DOCUMENTATION.has(key)).map(([key, value]) => [key, inline(value)]))
  }
  return inline(json)
}
