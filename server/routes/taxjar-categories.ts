// TaxJar's GET /v2/categories under /taxjar/v2: the product tax codes order tax understands, from
// the category table (order-tax/product-categories.ts), with the states each is modelled in.
import * as z from 'zod'
import { STATES } from '../../sources/index.ts'
import { CATEGORIES } from '../order-tax/product-categories.ts'
import { modelledStates } from '../order-tax/product-taxability.ts'
import { TAXJAR_ERRORS } from '../taxjar/taxjar-error.ts'
import { TAXJAR_BASE, TAXJAR_TAGS } from '../taxjar/taxjar-paths.ts'
import { defineRoute } from '../dispatch/route.ts'

const Category = z.object({
  product_tax_code: z.string(),
  name: z.string(),
  description: z.string(),
  modelled_states: z.array(z.string()).describe('taxatlas: the states whose rule for the code is in the table; elsewhere POST /v2/taxes refuses the code (400)'),
})

const CODES = STATES.map((d) => d.code)
const BODY = {
  categories: CATEGORIES.map((c) => ({ product_tax_code: c.code, name: c.name, description: c.description, modelled_states: modelledStates(c, CODES) })),
}

export const taxjarCategoriesRoute = defineRoute({
  method: 'GET',
  path: `${TAXJAR_BASE}/categories`,
  operationId: 'taxjarCategories',
  summary: 'TaxJar: product tax codes',
  description: 'The product_tax_code values POST /taxjar/v2/taxes understands. A line without a code is general goods, taxed at every level.',
  tags: TAXJAR_TAGS,
  auth: 'key',
  errorFormat: TAXJAR_ERRORS,
  responses: { 200: { description: 'The categories.', schema: z.object({ categories: z.array(Category) }) } },
}).handle(() => ({ status: 200, body: BODY }))
