// A stored transaction as the v1 portability endpoints answer it: TaxJar's field names, money as
// decimal strings (negative for refunds), and what taxatlas adds (kind, marketplace, source).
import * as z from 'zod'
import type { StoredTransaction } from '../store/transaction-store.ts'
import { formatMoney } from '../sale/money.ts'
import type { TransactionRecord } from '../store/transaction-record.ts'

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

/** A transaction's own fields under TaxJar's names, as answered and as sent (see input-of-record.ts). */
export function transactionFields(record: TransactionRecord): Omit<OrderView, 'source' | 'created_at' | 'updated_at'> {
  return {
    transaction_id: record.transactionId,
    provider: record.provider,
    kind: record.kind,
    transaction_date: record.transactionAt,
    transaction_reference_id: record.referenceId,
    to_country: record.toCountry,
    to_zip: record.toZip,
    to_state: record.toState,
    to_city: record.toCity,
    to_street: record.toStreet,
    from_country: record.fromCountry,
    from_zip: record.fromZip,
    from_state: record.fromState,
    from_city: record.fromCity,
    from_street: record.fromStreet,
    amount: formatMoney(record.amount),
    shipping: formatMoney(record.shipping),
    sales_tax: formatMoney(record.salesTax),
    customer_id: record.customerId,
    exemption_type: record.exemptionType,
    marketplace: record.marketplace,
    line_items: record.lineItems,
  }
}

export const orderView = (stored: StoredTransaction): OrderView => ({
  ...transactionFields(stored),
  source: stored.source,
  created_at: stored.createdAt,
  updated_at: stored.updatedAt,
})
