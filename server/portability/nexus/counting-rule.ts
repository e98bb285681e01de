// Which transactions count toward a state's economic-nexus threshold, read from the state's
// recorded rule (descriptor `nexus.salesCounted` and `nexus.marketplaceSalesCounted`, copied from
// the rules table). The wording is free text, so it is read by three explicit rules, and the
// classification of every state is pinned by a test:
//
//   exempt sales (exemption_type wholesale, government, other)
//     - `excluded`        when the counted sales are "taxable …" (AR, FL, MO, ND, NM, OK):
//                         only non-exempt sales count;
//     - `resale_excluded` when they are retail sales, or the text excludes resale/wholesale
//                         (AL, CO, CT, DC, GA, IL, MN, NE, NV, TN, VA): wholesale (a sale for
//                         resale) does not count, government and other exempt retail sales do;
//     - `counted`         otherwise (gross sales, gross receipts, gross revenue, total revenue).
//   marketplace sales (provider amazon/ebay/etsy/facebook/walmart, exemption_type marketplace,
//   or `marketplace: true`)
//     - not counted when the text starts with "excluded" (the facilitator's sales are its own);
//     - counted otherwise — "included", and also "unverified" or "conflicting": counting them
//       can only warn early, leaving them out could hide an obligation.
import type { StateDescriptor } from '../../../sources/descriptor.ts'

export type ExemptSales = 'counted' | 'resale_excluded' | 'excluded'

export type CountingRule = { exemptSales: ExemptSales; marketplaceSales: 'counted' | 'excluded' }

export function exemptSalesOf(salesCounted: string): ExemptSales {
  const text = salesCounted.trim().toLowerCase()
  const main = text.split('(')[0]
  if (/^taxable\b/.test(main)) return 'excluded'
  if (/\bretail\b/.test(main) || /excl\.?\s+(sales for\s+)?(resale|wholesale)/.test(text)) return 'resale_excluded'
  return 'counted'
}

export const marketplaceSalesOf = (text: string): CountingRule['marketplaceSales'] =>
  /^excluded\b/i.test(text.trim()) ? 'excluded' : 'counted'

export const countingRuleOf = (state: StateDescriptor): CountingRule => ({
  exemptSales: exemptSalesOf(state.nexus.salesCounted),
  marketplaceSales: marketplaceSalesOf(state.nexus.marketplaceSalesCounted),
})

/** Whether a transaction with these flags counts under the rule. */
export function counts(rule: CountingRule, exemptionType: string | null, marketplace: boolean): boolean {
  if (marketplace && rule.marketplaceSales === 'excluded') return false
  if (exemptionType === 'wholesale') return rule.exemptSales === 'counted'
  if (exemptionType === 'government' || exemptionType === 'other') return rule.exemptSales !== 'excluded'
  return true
}
