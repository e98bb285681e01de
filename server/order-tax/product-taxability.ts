// Which rule taxes each line item of an order in a state: its product_tax_code's rule from the
// category table, or general goods for a line without one. A code the table does not know, or
// whose rule for the state is not modelled, is refused (400) with the codes that are supported —
// never answered at the general rate — unless the server treats such codes as general
// (TAXATLAS_UNKNOWN_TAX_CODES=general), in which case the line says so.
import { invalidInput } from '../lookup/lookup-errors.ts'
import type { TaxedRule } from './line-tax.ts'
import { CATEGORIES, categoryOf, ruleIn, type Category } from './product-categories.ts'
import type { OrderLine } from './order-tax-request.ts'

export const UNKNOWN_CODE_POLICIES = ['reject', 'general'] as const
export type UnknownCodePolicy = (typeof UNKNOWN_CODE_POLICIES)[number]

export type LineRule = {
  category: Category | null
  rule: TaxedRule
  /** why a line with a code is taxed as general goods (policy `general`); null otherwise */
  asGeneral: string | null
}

export const GENERAL: TaxedRule = { kind: 'levels', state: 'taxable', local: 'taxable', source: 'general tangible goods: taxed at every level' }

const MAX_LISTED = 5
const SUPPORTED = CATEGORIES.map((c) => `${c.code} (${c.name})`).join(', ')

/** States where a category's rule answers (is not `not_modeled`). */
export function modelledStates(category: Category, states: readonly string[]): string[] {
  return states.filter((state) => ruleIn(category, state).kind !== 'not_modeled')
}

/** One rule per line, in line order; throws a 400 naming every line it cannot answer. */
export function lineRules(lines: readonly OrderLine[], state: string, policy: UnknownCodePolicy): LineRule[] {
  const problems: string[] = []
  const rules = lines.map((line): LineRule => {
    if (line.code === null) return { category: null, rule: GENERAL, asGeneral: null }
    const field = `line_items.${line.index}.product_tax_code`
    const category = categoryOf(line.code)
    if (!category) {
      const reason = `${field} "${line.code}" is not a supported product tax code`
      if (policy === 'general') return { category: null, rule: GENERAL, asGeneral: `${reason}; taxed as general goods (TAXATLAS_UNKNOWN_TAX_CODES=general)` }
      problems.push(`${reason}; supported codes: ${SUPPORTED}; leave it out for general goods`)
      return { category: null, rule: GENERAL, asGeneral: null }
    }
    const rule = ruleIn(category, state)
    if (rule.kind !== 'not_modeled') return { category, rule, asGeneral: null }
    const reason = `${field} ${category.code} (${category.name}) is not modelled in ${state}: ${rule.reason}`
    if (policy === 'general') return { category, rule: GENERAL, asGeneral: `${reason}; taxed as general goods (TAXATLAS_UNKNOWN_TAX_CODES=general)` }
    problems.push(`${reason}; send the line without a code to tax it as general goods`)
    return { category, rule: GENERAL, asGeneral: null }
  })
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED).join('; ')
    const more = problems.length > MAX_LISTED ? `; and ${problems.length - MAX_LISTED} more line items like these` : ''
    throw invalidInput(`${listed}${more}.`, { field: 'line_items', supported_codes: CATEGORIES.map((c) => c.code) })
  }
  return rules
}
