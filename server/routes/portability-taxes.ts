// POST /v1/portability/taxes: tax for an order in the service's own shape and error envelope — the
// engine of TaxJar's POST /taxjar/v2/taxes, answered with decimal strings and what it rests on.
import { MAX_TAX_LINE_ITEMS, OrderTaxInput } from '../order-tax/order-tax-input.ts'
import { NativeOrderTaxBody, nativeOrderTax } from '../portability/order-tax-native.ts'
import { ErrorBody } from '../base/errors.ts'
import { defineRoute } from '../dispatch/route.ts'
import { orderTaxCall } from './order-tax-call.ts'

export const portabilityTaxesRoute = defineRoute({
  method: 'POST',
  path: '/v1/portability/taxes',
  operationId: 'orderTax',
  summary: 'Tax for an order',
  description: [
    "TaxJar's order fields (POST /taxjar/v2/taxes takes the same body), answered with money as decimal strings and rates as 5-decimal strings.",
    "Nexus from nexus_addresses, else the registration list plus the from address; origin sourcing for an in-state sale in an origin state;",
    "shipping per the state's rule; product_tax_code from GET /taxjar/v2/categories; exemption_type or an exempt customer make the tax zero.",
    `Each line item's and the shipping's tax is rounded half up to the cent. At most ${MAX_TAX_LINE_ITEMS} line items; unknown fields are refused (422).`,
  ].join(' '),
  tags: ['portability'],
  auth: 'key',
  countsAsLookup: true,
  body: OrderTaxInput,
  responses: {
    200: { description: 'The tax, line by line and level by level.', schema: NativeOrderTaxBody },
    400: { description: 'INVALID_INPUT: a product_tax_code that is not supported or not modelled in the state (error.supported_codes), or no nexus source at all.', schema: ErrorBody },
    404: { description: 'NOT_FOUND: the destination (or origin) ZIP cannot be resolved.', schema: ErrorBody },
    503: { description: 'GEOCODER_UNAVAILABLE: the configured upstream geocoder cannot be reached (a street was sent).', schema: ErrorBody },
  },
}).handle(async (context) => ({ status: 200, body: nativeOrderTax(await orderTaxCall(context)) }))
