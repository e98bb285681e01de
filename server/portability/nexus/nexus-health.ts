// The nexus health report: for every state of the rules table, the account's counted total and
// count over the rolling 12 months ending today (UTC), the state's recorded rule, the status, and
// whether the account registered there. Built from one aggregate query's groups (per state,
// kind, exemption, marketplace flag) so the counting rule is applied here, per state.
import { STATES } from '../../../sources/index.ts'
import type { StateDescriptor } from '../../../sources/descriptor.ts'
import { stateFacts, type StateFacts } from '../../../sources/state-facts.ts'
import type { StateGroup } from '../../store/transaction-store.ts'
import type { Registration } from '../../store/nexus-registrations.ts'
import type { DateWindow } from '../../sale/date-window.ts'
import { dollarsToUnits, formatMoney, MONEY_SCALE } from '../../sale/money.ts'
import { countingRuleOf, counts, type CountingRule } from './counting-rule.ts'
import { nexusStatus, type NexusStatus, type Totals } from './nexus-status.ts'

export type StateHealth = {
  state: string
  name: string
  /** counted orders minus counted refunds, decimal string */
  order_total: string
  /** counted orders (refunds do not add to it) */
  transaction_count: number
  /** transactions in the window the state's rule leaves out (exempt or marketplace) */
  not_counted_total: string
  not_counted_count: number
  dollar_threshold: string | null
  transaction_threshold: number | null
  threshold_combination: StateFacts['nexus']['combine']
  measurement_period: string
  sales_counted: string
  marketplace_sales_counted: string
  counting: { exempt_sales: CountingRule['exemptSales']; marketplace_sales: CountingRule['marketplaceSales'] }
  /** total / dollar threshold and count / transaction threshold, 4 decimals (floored); null without that test */
  threshold_share: { dollars: number | null; transactions: number | null }
  status: NexusStatus
  near_threshold: boolean
  registered: boolean
  registered_since: string | null
}

export type NexusAlert = { state: string; name: string; status: 'approaching'; message: string }

export type NexusHealth = {
  as_of: string
  window: DateWindow & { basis: 'rolling_12_months' }
  band: string
  states: StateHealth[]
  alerts: NexusAlert[]
  exceeded_unregistered: string[]
}

export function nexusHealth(input: {
  today: string
  window: DateWindow
  bandBasisPoints: number
  groups: StateGroup[]
  registrations: readonly Registration[]
}): NexusHealth {
  const registered = new Map(input.registrations.map((r) => [r.state, r]))
  const states = STATES.map((state) => stateHealth(state, input.groups, input.bandBasisPoints, registered.get(state.code)))
  const alerts: NexusAlert[] = states
    .filter((row) => row.status === 'approaching')
    .map((row) => ({ state: row.state, name: row.name, status: 'approaching', message: alertMessage(row) }))
  return {
    as_of: input.today,
    window: { ...input.window, basis: 'rolling_12_months' },
    band: formatBand(input.bandBasisPoints),
    states,
    alerts,
    exceeded_unregistered: states.filter((row) => row.status === 'exceeded' && !row.registered).map((row) => row.state),
  }
}

function stateHealth(state: StateDescriptor, groups: StateGroup[], band: number, registration: Registration | undefined): StateHealth {
  const facts = stateFacts(state.code)!
  const rule = countingRuleOf(facts)
  const counted: Totals = { units: 0n, count: 0 }
  const left: Totals = { units: 0n, count: 0 }
  for (const group of groups) {
    if (group.state !== state.code) continue
    const into = counts(rule, group.exemptionType, group.marketplace) ? counted : left
    into.units += group.total
    if (group.kind === 'order') into.count += group.count
  }
  const { status, nearThreshold } = nexusStatus(facts, counted, band)
  const { nexus } = facts
  const { dollarThreshold, transactionThreshold } = nexus
  return {
    state: state.code,
    name: state.name,
    order_total: formatMoney(counted.units),
    transaction_count: counted.count,
    not_counted_total: formatMoney(left.units),
    not_counted_count: left.count,
    dollar_threshold: dollarThreshold === null ? null : formatMoney(dollarsToUnits(dollarThreshold)),
    transaction_threshold: transactionThreshold,
    threshold_combination: nexus.combine,
    measurement_period: nexus.measurementPeriod,
    sales_counted: nexus.wording.salesCounted,
    marketplace_sales_counted: nexus.wording.marketplaceSales,
    counting: { exempt_sales: rule.exemptSales, marketplace_sales: rule.marketplaceSales },
    threshold_share: {
      dollars: dollarThreshold === null || status === 'no_threshold' ? null : share(counted.units, dollarsToUnits(dollarThreshold)),
      transactions: transactionThreshold === null || status === 'no_threshold' ? null : share(BigInt(counted.count), BigInt(transactionThreshold)),
    },
    status,
    near_threshold: nearThreshold,
    registered: registration !== undefined,
    registered_since: registration?.registeredSince ?? null,
  }
}

/** value / limit floored to 4 decimals, by integer division (a display figure, not money). */
function share(value: bigint, limit: bigint): number {
  if (limit === 0n) return 0
  return Number((value * BigInt(MONEY_SCALE)) / limit) / MONEY_SCALE
}

function alertMessage(row: StateHealth): string {
  const parts: string[] = []
  if (row.dollar_threshold !== null && row.threshold_share.dollars !== null) {
    parts.push(`$${row.order_total} of the $${row.dollar_threshold} sales threshold (${percent(row.threshold_share.dollars)})`)
  }
  if (row.transaction_threshold !== null && row.threshold_share.transactions !== null) {
    parts.push(`${row.transaction_count} of the ${row.transaction_threshold} transactions threshold (${percent(row.threshold_share.transactions)})`)
  }
  return `${row.name}: ${parts.join(' and ')} in the rolling 12 months (${row.threshold_combination})`
}

const percent = (fraction: number) => `${(Math.floor(fraction * 1000) / 10).toFixed(1)}%`

const formatBand = (basisPoints: number) => (basisPoints / MONEY_SCALE).toString()
