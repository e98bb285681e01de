// The shape of a transaction as integrations send it — TaxJar's order and refund fields — checked
// for types only. Lenient on purpose: numbers or numeric strings for money and ZIPs, `false` or
// null for an absent street, unknown keys (`plugin: "woo"`) ignored. Meaning (money, dates, the
// ZIP/state pair) is checked afterwards by normalizeTransaction.
import * as z from 'zod'
import { Money, NumberLike, Text } from '../sale/lenient-fields.ts'

export const LineItemInput = z
  .object({
    id: Text,
    quantity: NumberLike.optional().describe('defaults to 1'),
    product_identifier: Text,
    description: Text.describe('at most 255 characters'),
    product_tax_code: Text,
    unit_price: Money,
    discount: Money.describe('the line discount, total (not per unit)'),
    sales_tax: Money,
  })
  .meta({ id: 'LineItemInput' })

export const TRANSACTION_FIELDS = {
  transaction_id: NumberLike.optional().describe('required; letters, digits, _ and - (as TaxJar)'),
  transaction_date: z.string().optional().describe('required; 2026-05-14, 2026/05/14, or an ISO date-time (no offset = UTC)'),
  provider: Text.describe('channel, default "api"; amazon, ebay, etsy, facebook and walmart mark marketplace sales'),
  transaction_reference_id: Text.describe('for a refund: the id of the order refunded'),
  to_country: Text.describe('US (default); other countries are refused'),
  to_zip: NumberLike.optional().describe('required; 5 digits or ZIP+4'),
  to_state: Text.describe('required; 2-letter code or state name'),
  to_city: Text,
  to_street: Text,
  from_country: Text,
  from_zip: NumberLike.nullable().optional(),
  from_state: Text,
  from_city: Text,
  from_street: Text,
  amount: Money.describe('required; order total including shipping, excluding sales tax'),
  shipping: Money.describe('default 0'),
  sales_tax: Money.describe('default 0; must be 0 for wholesale, government and other exemptions'),
  customer_id: Text,
  exemption_type: Text.describe('wholesale, government, marketplace, other or non_exempt'),
  line_items: z.array(LineItemInput).max(10_000).nullable().optional(),
}

/** A transaction as the orders endpoint and the backfill accept it (TaxJar's fields plus two). */
export const TransactionInput = z
  .object({
    ...TRANSACTION_FIELDS,
    kind: z.enum(['order', 'refund']).optional().describe('default: refund when amount is negative, else order'),
    marketplace: z.boolean().optional().describe('true for a sale made through a marketplace facilitator (also implied by provider or exemption_type)'),
  })
  .meta({ id: 'TransactionInput' })
export type TransactionInput = z.infer<typeof TransactionInput>
export type LineItemInput = z.infer<typeof LineItemInput>
