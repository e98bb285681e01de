// The state legal facts order tax reads: intrastate sourcing and how a separately stated shipping
// charge is taxed, from the state facts table (sources/state-facts.ts, compiled from the rules
// table), interpreted here once.
import { freightTaxable, localTaxItemCap, stateFacts, type StateFacts } from '../../sources/state-facts.ts'
import { dollarsToUnits } from '../sale/money.ts'

export type SourcingRule = StateFacts['sourcing']
type FreightRule = StateFacts['freight']

/**
 * How shipping is taxed, from the rules table's shipping_rule:
 * - `proportional` (taxable_if_item_taxable): shipping follows the goods; on a mixed order the share
 *   of shipping taxed is the share of the items' price that is taxable (the SST allocation by price)
 * - `taxable` (always_taxable): shipping is taxed in full (Hawaii's GET)
 * - `exempt` (exempt_if_separately_stated, and the states without a sales tax): a separately stated
 *   charge is not taxed
 * - `unverified`: the table has no verified rule; the state's freight_taxable flag decides
 */
export type ShippingRule = 'proportional' | 'taxable' | 'exempt' | 'unverified'

export type StateRules = {
  sourcing: SourcingRule
  shipping: ShippingRule
  /** the rules table's shipping_rule, e.g. taxable_if_item_taxable */
  freight: FreightRule
  /** the rates' freight_taxable flag (GET /v2/rates): whether delivery charges follow the goods */
  freightTaxable: boolean
  /** the most of a single item's price the local levels tax (money units), and why; null: the whole price */
  localItemCap: { perItem: number; source: string } | null
}

const SHIPPING_OF_FREIGHT: Record<FreightRule, ShippingRule> = {
  taxable_if_item_taxable: 'proportional',
  always_taxable: 'taxable',
  exempt_if_separately_stated: 'exempt',
  'n/a_no_sales_tax': 'exempt',
  'n/a_no_state_tax': 'exempt',
  unverified: 'unverified',
}

const RULES = new Map<string, StateRules>()

/** The rules of a state (2-letter code), or null for a code the rules table does not hold. */
export function stateRules(code: string): StateRules | null {
  let rules = RULES.get(code)
  if (!rules) {
    const facts = stateFacts(code)
    if (!facts) return null
    const cap = localTaxItemCap(code)
    const localItemCap = cap ? { perItem: Number(dollarsToUnits(cap.dollars)), source: cap.source } : null
    rules = { sourcing: facts.sourcing, shipping: SHIPPING_OF_FREIGHT[facts.freight], freight: facts.freight, freightTaxable: freightTaxable(facts), localItemCap }
    RULES.set(code, rules)
  }
  return rules
}
