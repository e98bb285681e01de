// The state legal facts order tax reads: intrastate sourcing and how a separately stated shipping
// charge is taxed. Every reader of those facts in server/ goes through this module, so where they
// come from (today the state descriptors in sources/, compiled from the rules table) changes here.
import { STATES, stateByCode } from '../../sources/index.ts'

export type SourcingRule = 'origin' | 'destination' | 'mixed' | 'n/a'

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
  /** the rules table's shipping_rule as written, e.g. taxable_if_item_taxable */
  freight: string
  /** the rates' freight_taxable flag (GET /v2/rates): whether delivery charges follow the goods */
  freightTaxable: boolean
}

const SHIPPING_OF_FREIGHT: Record<string, ShippingRule> = {
  taxable_if_item_taxable: 'proportional',
  always_taxable: 'taxable',
  exempt_if_separately_stated: 'exempt',
  'n/a_no_sales_tax': 'exempt',
  'n/a_no_state_tax': 'exempt',
}

const RULES = new Map<string, StateRules>()

/** The rules of a state (2-letter code), or null for a code the rules table does not hold. */
export function stateRules(code: string): StateRules | null {
  let rules = RULES.get(code)
  if (!rules) {
    const descriptor = stateByCode(code)
    if (!descriptor) return null
    rules = {
      sourcing: descriptor.sourcing,
      shipping: SHIPPING_OF_FREIGHT[descriptor.freight] ?? 'unverified',
      freight: descriptor.freight,
      freightTaxable: descriptor.freightTaxable,
    }
    RULES.set(code, rules)
  }
  return rules
}

/** The codes of the states whose intrastate sourcing is `rule`, in code order. */
export const statesSourced = (rule: SourcingRule): string[] => STATES.map((d) => d.code).filter((code) => stateRules(code)!.sourcing === rule)
