// TaxJar's POST /v2/taxes under /taxjar/v2, for `taxForOrder` of TaxJar clients: the order-tax
// engine (order-tax/order-tax.ts) answered as TaxJar's `tax` object, errors in TaxJar's shape.
import { TAXJAR_ERRORS } from '../taxjar/taxjar-error.ts'
import { MAX_TAX_LINE_ITEMS, OrderTaxInput } from '../order-tax/order-tax-input.ts'
import { TAXJAR_BASE, TAXJAR_TAGS } from '../taxjar/taxjar-paths.ts'
import { TaxjarTaxBody, taxjarTaxText } from '../taxjar/taxjar-tax-body.ts'
import { JsonText } from '../http/respond.ts'
import { defineRoute } from '../dispatch/route.ts'
import { orderTaxCall } from './order-tax-call.ts'

export const taxjarTaxesRoute = defineRoute({
  method: 'POST',
  path: `${TAXJAR_BASE}/taxes`,
  operationId: 'taxjarTaxForOrder',
  summary: 'TaxJar: tax for an order',
  description: [
    "TaxJar's tax calculation: nexus from nexus_addresses, else the registration list plus the from address;",
    "an in-state sale in an origin-sourcing state is taxed at the seller's location (from_zip);",
    "shipping per the state's rule (taxed where the goods are, in proportion on a mixed order);",
    'product_tax_code from GET /taxjar/v2/categories (an unknown code is a 400 unless TAXATLAS_UNKNOWN_TAX_CODES=general);',
    'exemption_type or an exempt customer make the tax zero, with exemption_reason.',
    `Each line item's and the shipping's tax is rounded half up to the cent. At most ${MAX_TAX_LINE_ITEMS} line items; unknown fields are refused.`,
  ].join(' '),
  tags: TAXJAR_TAGS,
  auth: 'key',
  countsAsLookup: true,
  errorFormat: TAXJAR_ERRORS,
  body: OrderTaxInput,
  responses: {
    200: { description: "TaxJar's tax object (JSON numbers).", schema: TaxjarTaxBody },
    400: { description: 'A product_tax_code that is not supported (or not modelled in the state), or no nexus source at all.', schema: TAXJAR_ERRORS.schema },
    404: { description: 'The destination (or origin) ZIP cannot be resolved.', schema: TAXJAR_ERRORS.schema },
    503: { description: 'The configured upstream geocoder cannot be reached (a street was sent); see Retry-After.', schema: TAXJAR_ERRORS.schema },
  },
}).handle(async (context) => ({ status: 200, body: new JsonText(taxjarTaxText(await orderTaxCall(context))) }))
