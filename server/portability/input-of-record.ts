// A stored transaction turned back into input fields, so a partial update (TaxJar's PUT) is the
// stored transaction with the sent fields laid over it, normalized again as a whole.
import { formatMoney } from './money.ts'
import type { TransactionInput } from './transaction-input.ts'
import { MARKETPLACE_PROVIDERS, type TransactionRecord } from './transaction-record.ts'

export function inputOfRecord(record: TransactionRecord): TransactionInput {
  return {
    transaction_id: record.transactionId,
    transaction_date: record.transactionAt,
    provider: record.provider,
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
    line_items: record.lineItems,
    kind: record.kind,
    // Only a flag that was sent: one implied by provider or exemption must follow their updates.
    marketplace: record.marketplace && !MARKETPLACE_PROVIDERS.includes(record.provider) && record.exemptionType !== 'marketplace',
  }
}

/** `base` with every field `patch` sends (not undefined) replacing it. */
export function patched(base: TransactionInput, patch: Partial<TransactionInput>): TransactionInput {
  const merged: Record<string, unknown> = { ...base }
  for (const [field, value] of Object.entries(patch)) if (value !== undefined) merged[field] = value
  return merged as TransactionInput
}
