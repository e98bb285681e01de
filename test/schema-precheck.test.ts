// The prechecks compiled from the routes' zod schemas (server/http/schema-precheck.ts): a value a
// precheck accepts must be one zod accepts and returns unchanged, for every route schema that has
// one, over values generated from the schema itself with wrong types, unknown keys and missing
// fields mixed in; schemas whose parse changes values compile to none.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { precheckOf } from '../server/http/schema-precheck.ts'
import { validate } from '../server/http/validation.ts'
import { API_ROUTES } from '../server/routes/index.ts'
import { MAX_TAX_LINE_ITEMS, OrderTaxInput } from '../server/order-tax/order-tax-input.ts'

type Def = { type: string; shape?: Record<string, z.ZodType>; options?: z.ZodType[]; innerType?: z.ZodType; element?: z.ZodType }
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def; values?: Set<unknown> } })._zod

/** Values shaped by the schema most of the time, anything JSON can hold the rest. */
function valuesOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const { def, values } = defOf(schema)
  const shaped = ((): fc.Arbitrary<unknown> => {
    switch (def.type) {
      case 'string':
        return fc.string({ maxLength: 8 })
      case 'number':
        return fc.oneof(fc.integer(), fc.double())
      case 'boolean':
        return fc.boolean()
      case 'null':
        return fc.constant(null)
      case 'literal':
      case 'enum':
        return fc.constantFrom(...values!)
      case 'optional':
        // absent more often than not: a query of many optional fields is mostly sent with few of them
        return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: valuesOf(def.innerType!) })
      case 'nullable':
        return fc.oneof(fc.constant(null), valuesOf(def.innerType!))
      case 'union':
        return fc.oneof(...def.options!.map(valuesOf))
      case 'array':
        return fc.array(valuesOf(def.element!), { maxLength: 4 })
      case 'object': {
        const fields = fc.record(Object.fromEntries(Object.entries(def.shape!).map(([name, field]) => [name, valuesOf(field)])), { requiredKeys: [] })
        return fc.oneof({ weight: 4, arbitrary: fields }, { weight: 1, arbitrary: fc.tuple(fields, fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue()).map(([f, k, v]) => ({ ...f, [k]: v })) })
      }
      default:
        return fc.jsonValue()
    }
  })()
  return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) })
}

const routeSchemas = API_ROUTES.flatMap((route) =>
  (['params', 'query', 'body'] as const).flatMap((where) => (route[where] ? [{ name: `${route.method} ${route.path} ${where}`, schema: route[where] as z.ZodType }] : [])),
)

/** A checkout as a TaxJar integration posts it. */
const checkout = {
  from_country: 'US',
  from_zip: '92093',
  from_state: 'CA',
  to_country: 'US',
  to_zip: '90002',
  to_state: 'CA',
  shipping: 1.5,
  nexus_addresses: [{ id: 'Main Location', country: 'US', zip: '92093', state: 'CA', city: 'La Jolla', street: '9500 Gilman Drive' }],
  line_items: [
    { id: '1', quantity: 1, product_tax_code: '20010', unit_price: 15, discount: 0 },
    { id: '2', quantity: '3', unit_price: '3.33' },
  ],
}

describe('schema prechecks', () => {
  it('accept only what zod accepts and returns unchanged, for every route schema that has one', () => {
    const compiled = routeSchemas.filter(({ schema }) => precheckOf(schema) !== null)
    // the schemas `make bench` weighs the precheck on: without a precheck for them it would be a no-op where it counts
    expect(compiled.map((c) => c.name)).toEqual(expect.arrayContaining(['POST /taxjar/v2/taxes body', 'GET /v1/tax/:state query']))
    for (const { name, schema } of compiled) {
      const precheck = precheckOf(schema)!
      let accepted = 0
      fc.assert(
        fc.property(valuesOf(schema), (value) => {
          if (!precheck(value)) return
          accepted++
          const parsed = schema.safeParse(value)
          expect(parsed.success, name).toBe(true)
          expect(parsed.data, name).toEqual(value)
        }),
        { numRuns: 300 },
      )
      expect(accepted, `${name}: some generated values pass the precheck`).toBeGreaterThan(0)
    }
  })

  it('take a checkout without parsing it, and leave a refused one to zod and its 422 details', () => {
    expect(precheckOf(OrderTaxInput)!(checkout)).toBe(true)
    expect(validate(OrderTaxInput, 'body', checkout)).toEqual({ ok: true, value: checkout })

    const misspelt = { ...checkout, line_item: checkout.line_items }
    expect(precheckOf(OrderTaxInput)!(misspelt)).toBe(false)
    const refused = validate(OrderTaxInput, 'body', misspelt)
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.detail.map((d) => [d.loc.join('.'), d.type])).toEqual([['body', 'unrecognized_keys']])

    const wrongType = { ...checkout, line_items: [{ ...checkout.line_items[0], unit_price: { amount: 15 } }] }
    expect(precheckOf(OrderTaxInput)!(wrongType)).toBe(false)
    const typed = validate(OrderTaxInput, 'body', wrongType)
    expect(!typed.ok && typed.detail.map((d) => d.loc.join('.'))).toEqual(['body.line_items.0.unit_price'])
  })

  it('hold the array limits: the most line items pass, one more goes to zod, which refuses it', () => {
    const precheck = precheckOf(OrderTaxInput)!
    const lines = (n: number) => ({ ...checkout, line_items: Array.from({ length: n }, (_, i) => ({ id: String(i), unit_price: 1 })) })
    expect(precheck(lines(MAX_TAX_LINE_ITEMS))).toBe(true)
    expect(precheck(lines(MAX_TAX_LINE_ITEMS + 1))).toBe(false)
    expect(OrderTaxInput.safeParse(lines(MAX_TAX_LINE_ITEMS + 1)).success).toBe(false)
  })

  it('compile to none where the parse changes or refines values (coercion, defaults, transforms, refinements, formats, loose objects) or zod\'s internals are not as read', () => {
    const changing = [
      z.coerce.number(),
      z.string().default('x'),
      z.string().transform((s) => s.trim()),
      z.object({ a: z.string() }).refine((o) => o.a !== ''),
      z.number().int(),
      z.string().regex(/^\d{5}$/),
      z.looseObject({ a: z.string() }),
      z.union([z.object({ a: z.string() }), z.string()]),
      z.object({ when: z.iso.date() }),
      z.string().trim().max(5),
      z.string().default('x').optional(),
    ]
    for (const schema of changing) expect(precheckOf(schema)).toBeNull()
    // internals of another shape than zod's today (a release that changed them): no precheck, and no failure
    expect(precheckOf({ _zod: { def: { type: 'object', shape: null } } } as unknown as z.ZodType)).toBeNull()
    expect(precheckOf({} as unknown as z.ZodType)).toBeNull()
    // A stripping object has one, and leaves a value with an unknown key to zod, which drops the key.
    const stripping = z.object({ a: z.string() })
    expect(precheckOf(stripping)!({ a: 'x', b: 1 })).toBe(false)
    expect(validate(stripping, 'body', { a: 'x', b: 1 })).toEqual({ ok: true, value: { a: 'x' } })
  })

  it("hold a string's length limits, and take an absent optional field whose schema transforms a value sent, leaving a sent one to zod", () => {
    const bounded = precheckOf(z.string().min(2).max(4))!
    expect(['', 'a', 'ab', 'abcd', 'abcde', 3].map((value) => bounded(value))).toEqual([false, false, true, true, false, false])

    const query = z.object({ zip: z.string().optional(), lat: z.string().transform(Number).pipe(z.number().max(90)).optional() })
    const precheck = precheckOf(query)!
    expect(precheck({ zip: '30303' })).toBe(true)
    expect(validate(query, 'query', { zip: '30303' })).toEqual({ ok: true, value: { zip: '30303' } })
    expect(precheck({ lat: '45.5' })).toBe(false)
    expect(validate(query, 'query', { lat: '45.5' })).toEqual({ ok: true, value: { lat: 45.5 } })
  })
})
