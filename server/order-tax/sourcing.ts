// Which location a sale is answered at, from the state's intrastate sourcing rule (the rules
// table's intrastate_sourcing, in sources/state-facts.ts). Interstate sales are
// destination-sourced everywhere. An in-state seller in an `origin` state is answered at its own
// location. `mixed` states split their taxes between the two; they are answered at the destination
// with a warning that says how the state splits them.
import { STATE_FACTS, stateFacts, type StateFacts } from '../../sources/state-facts.ts'
import { invalidInput } from '../lookup/lookup-errors.ts'

export type SourcingRule = StateFacts['sourcing']

/** Where the seller is: its state, and its ZIP when known. */
export type Seller = { state: string; zip5: string | null }

export type Sourcing = {
  applied: 'destination' | 'origin'
  /** the destination state's intrastate rule; null for a state the rules table does not hold */
  rule: SourcingRule | null
  reason: string
}

export type MixedSourcingWarning = { code: 'mixed_sourcing'; message: string; state: string }

export type SourcingDecision = {
  sourcing: Sourcing
  warning: MixedSourcingWarning | null
  /** the seller's location to answer at, when sourcing.applied is origin */
  origin: { state: string; zip5: string } | null
}

export const statesSourced = (rule: SourcingRule): string[] => STATE_FACTS.filter((row) => row.sourcing === rule).map((row) => row.code)

// From the rules table's sourcing_notes for the two mixed states.
const MIXED_SPLIT: Record<string, string> = {
  CA:
    "CA splits intrastate sourcing: the state, county and city part (7.25%, the same statewide) follows the seller's place of business, " +
    'district taxes follow the delivery location where the retailer is engaged in business in that district. ' +
    "The destination was answered: its 7.25% is the origin's, and its district taxes are the retailer's to collect only where it is engaged in business in those districts.",
  IL:
    "IL splits sourcing by seller: an Illinois retailer's sales are sourced to where its selling activity happens (often its own location); " +
    'remote retailers, marketplaces and Illinois retailers shipping from outside Illinois source to the destination. ' +
    "The destination was answered; look up the seller's own ZIP when the sale happens at its Illinois location.",
}

function mixedWarning(state: string): MixedSourcingWarning {
  const message =
    MIXED_SPLIT[state] ?? `${state} sources some intrastate taxes to the seller's location and others to the destination; the destination was answered.`
  return { code: 'mixed_sourcing', message, state }
}

export function decideSourcing(destinationState: string, seller: Seller | null): SourcingDecision {
  const rule = stateFacts(destinationState)?.sourcing ?? null
  const destination = (reason: string, warning: MixedSourcingWarning | null = null): SourcingDecision => ({
    sourcing: { applied: 'destination', rule, reason },
    warning,
    origin: null,
  })
  if (!seller) return destination('No seller_state or seller_zip was sent: answered at the destination.')
  if (seller.state !== destinationState) {
    return destination(`Interstate sale (seller in ${seller.state}, buyer in ${destinationState}): sourced to the destination.`)
  }
  switch (rule) {
    case 'origin':
      if (!seller.zip5) {
        throw invalidInput(`${destinationState} sources an in-state seller's sales to the seller's location (origin); send seller_zip to answer there.`, {
          field: 'seller_zip',
        })
      }
      return {
        sourcing: {
          applied: 'origin',
          rule,
          reason: `${destinationState} sources an in-state seller's sales to the seller's location (origin sourcing): answered at seller_zip ${seller.zip5}.`,
        },
        warning: null,
        origin: { state: seller.state, zip5: seller.zip5 },
      }
    case 'mixed':
      return destination(`${destinationState} uses mixed sourcing: answered at the destination (see the mixed_sourcing warning).`, mixedWarning(destinationState))
    case 'n/a':
      return destination(`Sourcing does not change the rate in ${destinationState} (one rate statewide, or no sales tax): answered at the destination.`)
    default:
      return destination(`${destinationState} sources in-state sales to the destination.`)
  }
}
