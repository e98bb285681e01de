// The body of an order-tax request (TaxJar's POST /v2/taxes, and POST /v1/portability/taxes):
// TaxJar's fields, checked for types only, lenient on values as platforms send them (numbers or
// numeric strings, `false` for an absent street). Unknown keys are refused, so a misspelt field
// (`line_item`, `tax_code`) is named in a 422 instead of silently changing the tax; `plugin`,
// which platform plugins add, and the order-only line fields a client may reuse are accepted and
// ignored. Meaning is checked afterwards by readOrderTax.
import * as z from 'zod'
import { Money, NumberLike, Text } from '../sale/lenient-fields.ts'

/** The most line items one request may carry. */
export const MAX_TAX_LINE_ITEMS = 1_000
export const MAX_NEXUS_ADDRESSES = 100

export const TaxLineItemInput = z
  .object({
    id: Text,
    quantity: NumberLike.optional().describe('a whole number of items; default 1'),
    product_tax_code: Text.describe('a code of GET /taxjar/v2/categories; none: general goods'),
    unit_price: Money.describe('required: the price of one item'),
    discount: Money.describe('the line discount, total (not per unit); default 0'),
    product_identifier: Text.describe('accepted and ignored (an order line field)'),
    description: Text.describe('accepted and ignored (an order line field)'),
    sales_tax: Money.describe('accepted and ignored (an order line field)'),
  })
  .strict()
  .meta({ id: 'TaxLineItemInput' })

export const NexusAddressInput = z
  .object({ id: Text, country: Text, zip: NumberLike.nullable().optional(), state: Text, city: Text, street: Text })
  .strict()
  .meta({ id: 'NexusAddressInput' })

export const OrderTaxInput = z
  .object({
    from_country: Text.describe('US; an address outside the US is not a seller location for sourcing'),
    from_zip: NumberLike.nullable().optional(),
    from_state: Text,
    from_city: Text,
    from_street: Text,
    to_country: Text.describe('US (default); other countries are refused'),
    to_zip: NumberLike.optional().describe('required: 5 digits or ZIP+4'),
    to_state: Text.describe('required: 2-letter code or state name'),
    to_city: Text,
    to_street: Text,
    amount: Money.describe('the order total excluding shipping; with line_items, their total after (or before) discounts'),
    shipping: Money.describe('required: the shipping charge, stated separately'),
    customer_id: Text.describe('a customer of /taxjar/v2/customers: its exemption applies'),
    exemption_type: Text.describe('wholesale, government, marketplace, other (no tax) or non_exempt (taxed even for an exempt customer)'),
    nexus_addresses: z.array(NexusAddressInput).max(MAX_NEXUS_ADDRESSES).nullable().optional().describe("the seller's nexus locations; when sent they replace the registration list"),
    line_items: z.array(TaxLineItemInput).max(MAX_TAX_LINE_ITEMS).nullable().optional(),
    plugin: Text.describe('sent by platform plugins (woo, magento); ignored'),
  })
  .strict()
  .meta({ id: 'OrderTaxInput' })
export type OrderTaxInput = z.infer<typeof OrderTaxInput>
export type TaxLineItemInput = z.infer<typeof TaxLineItemInput>
