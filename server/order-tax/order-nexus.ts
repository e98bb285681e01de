// Where the seller has nexus for one order, as TaxJar decides it: the states of `nexus_addresses`
// when the order sends any; otherwise the account's registration list (PUT /v1/portability/nexus,
// registrations dated after today not yet counting) plus the state the order ships from, since a
// seller is present where it ships from. With none of the three there is nothing to decide by.
import { invalidInput } from '../lookup/lookup-errors.ts'
import type { Registration } from '../store/nexus-registrations.ts'
import type { OrderTaxRequest } from './order-tax-request.ts'

export type NexusBasis = 'nexus_addresses' | 'registrations'

export type Nexus = { states: ReadonlySet<string>; basis: NexusBasis }

export const NO_NEXUS_SOURCE =
  'No from address, no nexus address, and no address on file: send from_state or from_zip, or nexus_addresses, or register the states you collect in (PUT /v1/portability/nexus).'

// An account's registration list is read once and kept (store/nexus-registrations.ts): the
// states it counts today, alone and with each state an order ships from, are worked out once per
// list and day.
type Counted = { today: string; states: ReadonlySet<string>; withFrom: Map<string, ReadonlySet<string>> }
const counted = new WeakMap<readonly Registration[], Counted>()

function registeredStates(registrations: readonly Registration[], today: string, from: string | null): ReadonlySet<string> {
  let known = counted.get(registrations)
  if (known?.today !== today) {
    const states = new Set(registrations.filter((r) => r.registeredSince === null || r.registeredSince <= today).map((r) => r.state))
    counted.set(registrations, (known = { today, states, withFrom: new Map() }))
  }
  if (from === null || known.states.has(from)) return known.states
  let states = known.withFrom.get(from)
  if (!states) known.withFrom.set(from, (states = new Set(known.states).add(from)))
  return states
}

export function orderNexus(request: Pick<OrderTaxRequest, 'nexusStates' | 'from'>, registrations: readonly Registration[], today: string): Nexus {
  if (request.nexusStates && request.nexusStates.length > 0) return { states: new Set(request.nexusStates), basis: 'nexus_addresses' }
  if (registrations.length === 0 && !request.from) throw invalidInput(NO_NEXUS_SOURCE, { field: 'nexus_addresses' })
  return { states: registeredStates(registrations, today, request.from?.state ?? null), basis: 'registrations' }
}
