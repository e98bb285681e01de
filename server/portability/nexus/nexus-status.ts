// A state's nexus status from its totals and its rule, in exact integer arithmetic:
//   no_threshold     the state has no sales tax, or no dollar or transaction threshold;
//   exceeded         the rule is met: sales_only → total ≥ dollar threshold;
//                    sales_or_transactions → either test; sales_and_transactions → both
//                    ("met" counts as exceeded: reaching the figure is what states test);
//   approaching      not exceeded, but the total is within the band of the dollar threshold or
//                    the count within the band of the transaction threshold (band 25%: at least
//                    75% of either) — near_threshold is then true and the state is alerted;
//   under_threshold  otherwise.
import type { StateFacts } from '../../../sources/state-facts.ts'
import { dollarsToUnits, MONEY_SCALE } from '../../sale/money.ts'

export type NexusStatus = 'under_threshold' | 'approaching' | 'exceeded' | 'no_threshold'

export type Totals = { units: bigint; count: number }

export type StatusDecision = { status: NexusStatus; nearThreshold: boolean }

/** The band in basis points (2500 = 25%), exactly as money units of 1/10,000 read "0.25". */
export function nexusStatus(state: Pick<StateFacts, 'salesTax' | 'nexus'>, totals: Totals, bandBasisPoints: number): StatusDecision {
  const { dollarThreshold, transactionThreshold, combine } = state.nexus
  const dollarTest = combine !== 'none' && dollarThreshold !== null
  const countTest = combine !== 'none' && combine !== 'sales_only' && transactionThreshold !== null
  if (state.salesTax === 'no' || (!dollarTest && !countTest)) return { status: 'no_threshold', nearThreshold: false }

  const threshold = dollarTest ? dollarsToUnits(dollarThreshold!) : 0n
  const dollarsMet = dollarTest && totals.units >= threshold
  const countMet = countTest && totals.count >= transactionThreshold!
  const exceeded =
    combine === 'sales_and_transactions' ? (!dollarTest || dollarsMet) && (!countTest || countMet) : dollarsMet || countMet
  if (exceeded) return { status: 'exceeded', nearThreshold: false }

  const scale = BigInt(MONEY_SCALE)
  const floor = BigInt(MONEY_SCALE - bandBasisPoints)
  const nearDollars = dollarTest && totals.units * scale >= threshold * floor
  const nearCount = countTest && BigInt(totals.count) * scale >= BigInt(transactionThreshold!) * floor
  return nearDollars || nearCount ? { status: 'approaching', nearThreshold: true } : { status: 'under_threshold', nearThreshold: false }
}
