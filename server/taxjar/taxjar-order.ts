// Orders and refunds in TaxJar's response shape: amounts as decimal strings, the date as an
// instant with `Z`, `user_id` an integer derived from the account id (stable, not secret).
import * as z from 'zod'
import type { StoredTransaction } from '../store/transaction-store.ts'
import { formatMoney } from '../sale/money.ts'
import { taxjarInstant } from '../portability/transaction-date.ts'
import type { TransactionKey } from '../store/transaction-record.ts'

const Text = z.string().nullable()

export const TaxjarLineItem = z
  .object({
    id: Text,
    quantity: z.number(),
    product_identifier: Text,
    description: Text,
    product_tax_code: Text,
    unit_price: z.string(),
    discount: z.string(),
    sales_tax: z.string(),
  })
  .meta({ id: 'TaxjarLineItem' })

export const TaxjarTransaction = z
  .object({
    transaction_id: z.string(),
    user_id: z.number().int(),
    transaction_date: Text,
    transaction_reference_id: Text,
    provider: z.string(),
    exemption_type: Text,
    from_country: Text,
    from_zip: Text,
    from_state: Text,
    from_city: Text,
    from_street: Text,
    to_country: Text,
    to_zip: Text,
    to_state: Text,
    to_city: Text,
    to_street: Text,
    amount: Text,
    shipping: Text,
    sales_tax: Text,
    line_items: z.array(TaxjarLineItem),
  })
  .meta({ id: 'TaxjarTransaction' })
export type TaxjarTransaction = z.infer<typeof TaxjarTransaction>

/** The first 48 bits of the account id's hex part: a safe integer, the same on every call. */
export function taxjarUserId(accountId: string): number {
  const hex = accountId.replace(/^[a-z]+_/, '').replace(/[^0-9a-f]/gi, '').slice(0, 12)
  return hex ? parseInt(hex, 16) : 0
}

export function taxjarTransaction(stored: StoredTransaction, accountId: string): TaxjarTransaction {
  return {
    transaction_id: stored.transactionId,
    user_id: taxjarUserId(accountId),
    transaction_date: taxjarInstant(stored.transactionAt),
    transaction_reference_id: stored.referenceId,
    provider: stored.provider,
    exemption_type: stored.exemptionType,
    from_country: stored.fromCountry,
    from_zip: stored.fromZip,
    from_state: stored.fromState,
    from_city: stored.fromCity,
    from_street: stored.fromStreet,
    to_country: stored.toCountry,
    to_zip: stored.toZip,
    to_state: stored.toState,
    to_city: stored.toCity,
    to_street: stored.toStreet,
    amount: formatMoney(stored.amount),
    shipping: formatMoney(stored.shipping),
    sales_tax: formatMoney(stored.salesTax),
    line_items: (stored.lineItems ?? []).map((line) => ({ ...line, quantity: Number(line.quantity) })),
  }
}

/** What TaxJar answers to a delete: the ids kept, every value null, no line items. */
export function deletedTaxjarTransaction(key: TransactionKey, accountId: string): TaxjarTransaction {
  return {
    transaction_id: key.transactionId,
    user_id: taxjarUserId(accountId),
    transaction_date: null,
    transaction_reference_id: null,
    provider: key.provider,
    exemption_type: null,
    from_country: null,
    from_zip: null,
    from_state: null,
    from_city: null,
    from_street: null,
    to_country: null,
    to_zip: null,
    to_state: null,
    to_city: null,
    to_street: null,
    amount: null,
    shipping: null,
    sales_tax: null,
    line_items: [],
  }
}
