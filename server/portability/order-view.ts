// A stored transaction as the v1 portability endpoints answer it: TaxJar's field names, money as
// decimal strings (negative for refunds), and what taxatlas adds (kind, marketplace, source).
import { z } from 'zod'
import type { StoredTransaction } from '../store/transactions.ts'
import { formatMoney } from './money.ts'

const MoneyText = z.string().describe('decimal string, e.g. "19.99"; negative for a refund')

export const LineItemView = z
  .object({
    id: z.string().nullable(),
    quantity: z.string(),
    product_identifier: z.string().nullable(),
    description: z.string().nullable(),
    product_tax_code: z.string().nullable(),
    unit_price: MoneyText,
    discount: MoneyText,
    sales_tax: MoneyText,
  })
  .meta({ id: 'LineItem' })

export const OrderView = z
  .object({
    transaction_id: z.string(),
    provider: z.string(),
    kind: z.enum(['order', 'refund']),
    transaction_date: z.string().describe('the instant, UTC: 2026-05-14T10:20:30.000Z'),
    transaction_reference_id: z.string().nullable(),
    to_country: z.string(),
    to_zip: z.string(),
    to_state: z.string(),
    to_city: z.string().nullable(),
    to_street: z.string().nullable(),
    from_country: z.string().nullable(),
    from_zip: z.string().nullable(),
    from_state: z.string().nullable(),
    from_city: z.string().nullable(),
    from_street: z.string().nullable(),
    amount: MoneyText.describe('including shipping, excluding sales tax'),
    shipping: MoneyText,
    sales_tax: MoneyText,
    customer_id: z.string().nullable(),
    exemption_type: z.string().nullable(),
    marketplace: z.boolean(),
    line_items: z.array(LineItemView).nullable(),
    source: z.enum(['api', 'backfill', 'taxjar']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Order' })
export type OrderView = z.infer<typeof OrderView>

export function orderView(stored: StoredTransaction): OrderView {
  return {
    transaction_id: stored.transactionId,
    provider: stored.provider,
    kind: stored.kind,
    transaction_date: stored.transactionAt,
    transaction_reference_id: stored.referenceId,
    to_country: stored.toCountry,
    to_zip: stored.toZip,
    to_state: stored.toState,
    to_city: stored.toCity,
    to_street: stored.toStreet,
    from_country: stored.fromCountry,
    from_zip: stored.fromZip,
    from_state: stored.fromState,
    from_city: stored.fromCity,
    from_street: stored.fromStreet,
    amount: formatMoney(stored.amount),
    shipping: formatMoney(stored.shipping),
    sales_tax: formatMoney(stored.salesTax),
    customer_id: stored.customerId,
    exemption_type: stored.exemptionType,
    marketplace: stored.marketplace,
    line_items: stored.lineItems,
    source: stored.source,
    created_at: stored.createdAt,
    updated_at: stored.updatedAt,
  }
}
