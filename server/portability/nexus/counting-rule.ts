// Which transactions count toward a state's economic-nexus threshold, from the state's rule in the
// rules table (sources/state-facts.ts):
//
//   exempt sales (exemption_type wholesale, government, other), by the sales the state counts
//     - taxable  → `excluded`:        only non-exempt sales count;
//     - retail   → `resale_excluded`: wholesale (a sale for resale) does not count, government and
//                                     other exempt retail sales do;
//     - gross    → `counted` (and a state with no sales tax, whose totals no threshold reads).
//   marketplace sales (provider amazon/ebay/etsy/facebook/walmart, exemption_type marketplace,
//   or `marketplace: true`)
//     - not counted where the table says `excluded` (the facilitator's sales are its own);
//     - counted otherwise — `included`, and also `unverified` or `conflicting`: counting them can
//       only warn early, leaving them out could hide an obligation.
import type { StateFacts } from '../../../sources/state-facts.ts'

export type ExemptSales = 'counted' | 'resale_excluded' | 'excluded'

export type CountingRule = { exemptSales: ExemptSales; marketplaceSales: 'counted' | 'excluded' }

const EXEMPT_SALES: Record<StateFacts['nexus']['salesCounted'], ExemptSales> = {
  gross: 'counted',
  retail: 'resale_excluded',
  taxable: 'excluded',
  'n/a': 'counted',
}

export const countingRuleOf = ({ nexus }: Pick<StateFacts, 'nexus'>): CountingRule => ({
  exemptSales: EXEMPT_SALES[nexus.salesCounted],
  marketplaceSales: nexus.marketplaceSales === 'excluded' ? 'excluded' : 'counted',
})

/** Whether a transaction with these flags counts under the rule. */
export function counts(rule: CountingRule, exemptionType: string | null, marketplace: boolean): boolean {
  if (marketplace && rule.marketplaceSales === 'excluded') return false
  if (exemptionType === 'wholesale') return rule.exemptSales === 'counted'
  if (exemptionType === 'government' || exemptionType === 'other') return rule.exemptSales !== 'excluded'
  return true
}
