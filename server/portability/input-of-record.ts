// A stored transaction turned back into input fields, so a partial update (TaxJar's PUT) is the
// stored transaction with the sent fields laid over it, normalized again as a whole.
import { transactionFields } from './order-view.ts'
import type { TransactionInput } from './transaction-input.ts'
import { MARKETPLACE_PROVIDERS, type TransactionRecord } from '../store/transaction-record.ts'

export function inputOfRecord(record: TransactionRecord): TransactionInput {
  return {
    ...transactionFields(record),
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
