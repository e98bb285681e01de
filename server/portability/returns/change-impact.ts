// What a rate change means to an account (GET /v1/changes?impact=true, the rate_changes.announced
// webhook): its stored transactions of the last IMPACT_DAYS days in the state, placed as a return
// places them (return-places.ts) in the data in service, and for each change whose jurisdiction
// the place stacks, the sales, what that level taxes of them (taxable-bases.ts) and the tax the
// new rate would have made on them beside the old. A transaction whose ZIP the change touches but
// whose place lies outside the jurisdiction (another candidate of the ZIP) is counted apart, since
// a city sent wrong or not at all may have placed it there.
import type { Candidate } from '../../../snapshot-contract/rate-index.ts'
import { IMPACT_DAYS, type ChangeImpact } from '../../changes/changes-feed.ts'
import type { StateChange } from '../../changes/state-changes.ts'
import type { SnapshotView } from '../../lookup/snapshot-facts.ts'
import { stateRules } from '../../order-tax/state-rules.ts'
import { addDays } from '../../sale/date-window.ts'
import { formatMoney } from '../../sale/money.ts'
import type { TransactionStore } from '../../store/transaction-store.ts'
import { ReturnPlaces, type Placed } from './return-places.ts'
import { dueCents } from './returns-ledger.ts'
import { groupBases, itemBases, type Bases } from './taxable-bases.ts'

export type ImpactSources = { current: SnapshotView; transactions: TransactionStore }

type Exposure = {
  transactions: number
  gross: bigint
  taxable: bigint
  /** taxable × rate difference, 1e-9 dollar */
  differenceExact: bigint
  defaultTransactions: number
  defaultGross: bigint
  otherTransactions: number
  otherGross: bigint
}

const noExposure = (): Exposure => ({ transactions: 0, gross: 0n, taxable: 0n, differenceExact: 0n, defaultTransactions: 0, defaultGross: 0n, otherTransactions: 0, otherGross: 0n })

const keyOf = (authority: { level: string; code: string }) => `${authority.level}|${authority.code}`

function groupedBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group) group.push(item)
    else groups.set(k, [item])
  }
  return groups
}

/** Placed transactions between two yields to the event loop: lookups keep being answered meanwhile. */
const YIELD_EVERY = 2_000
const yieldToLookups = () => new Promise<void>((resolve) => setImmediate(resolve))

/** The account's exposure to each change, over the IMPACT_DAYS days ending `today`. */
export async function changeImpacts(sources: ImpactSources, accountId: string, changes: readonly StateChange[], today: string): Promise<Map<StateChange, ChangeImpact>> {
  const window = { from: addDays(today, -(IMPACT_DAYS - 1)), to: today }
  const exposures = new Map<StateChange, Exposure>()
  for (const change of changes) exposures.set(change, noExposure())
  const byState = groupedBy(changes, (change) => change.state)
  for (const [state, stateChanges] of byState) await addStateExposures(sources, accountId, state, stateChanges, window, exposures)
  return new Map([...exposures].map(([change, exposure]) => [change, impactBody(exposure, window)]))
}

async function addStateExposures(sources: ImpactSources, accountId: string, state: string, changes: readonly StateChange[], window: { from: string; to: string }, exposures: Map<StateChange, Exposure>) {
  const rules = stateRules(state)
  if (!rules) return
  const view = sources.current
  const rows = await sources.transactions.returnRows(accountId, { state, ...window, origin: rules.sourcing === 'origin', breaks: [], itemizeAbove: rules.localItemCap?.perItem ?? null })
  const byAuthority = groupedBy(changes, keyOf)
  const places = new ReturnPlaces(state)
  const stackKeys = new Map<Candidate, Set<string>>()
  const keysOfCandidate = (candidate: Candidate) => {
    let keys = stackKeys.get(candidate)
    if (!keys) stackKeys.set(candidate, (keys = new Set(view.rates.authorityHistory(candidate.stack).map(keyOf))))
    return keys
  }

  const add = (placed: Placed, count: number, amount: bigint, bases: (countyFips: string | null) => Bases) => {
    if (!placed.ok) return
    const own = keysOfCandidate(placed.candidate)
    let computed: Bases | null = null
    for (const key of own) {
      for (const change of byAuthority.get(key) ?? []) {
        const exposure = exposures.get(change)!
        computed ??= bases(placed.candidate.county?.fips ?? null)
        const taxable = computed[change.level].taxable
        exposure.transactions += count
        exposure.gross += amount
        exposure.taxable += taxable
        exposure.differenceExact += taxable * BigInt((change.newRate ?? 0) - (change.oldRate ?? 0))
        if (placed.defaultChoice) {
          exposure.defaultTransactions += count
          exposure.defaultGross += amount
        }
      }
    }
    // The ZIP's other candidates: a change of a jurisdiction stacked there and not here.
    const elsewhere = new Set(placed.candidates.filter((c) => c !== placed.candidate).flatMap((c) => [...keysOfCandidate(c)]).filter((key) => !own.has(key)))
    for (const key of elsewhere) {
      for (const change of byAuthority.get(key) ?? []) {
        const exposure = exposures.get(change)!
        exposure.otherTransactions += count
        exposure.otherGross += amount
      }
    }
  }

  let placedCount = 0
  for (const group of rows.groups) {
    if (group.zip !== null) add(places.place(view, group.zip, group.city, window.to), group.count, group.amount, () => groupBases(group.exemption, group.amount, group.shipping, rules))
    if (++placedCount % YIELD_EVERY === 0) await yieldToLookups()
  }
  for (const transaction of rows.itemized) {
    if (transaction.zip !== null) add(places.place(view, transaction.zip, transaction.city, window.to), 1, BigInt(transaction.amount), (countyFips) => itemBases(transaction, rules, countyFips, state, () => {}))
    if (++placedCount % YIELD_EVERY === 0) await yieldToLookups()
  }
}

function impactBody(exposure: Exposure, window: { from: string; to: string }): ChangeImpact {
  return {
    window,
    transactions: exposure.transactions,
    gross_sales: formatMoney(exposure.gross),
    taxable_sales: formatMoney(exposure.taxable),
    tax_difference: formatMoney(dueCents({ dueExact: exposure.differenceExact }) * 100n),
    default_choice: { transactions: exposure.defaultTransactions, gross_sales: formatMoney(exposure.defaultGross) },
    other_candidates: { transactions: exposure.otherTransactions, gross_sales: formatMoney(exposure.otherGross) },
  }
}
