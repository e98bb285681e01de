// A sales-tax return for one state and period from an account's stored transactions (orders less
// refunds, backfills included, by transaction date): the period's rate segments (rate-segments.ts),
// the transactions summed per place, segment and exemption by the store (store/return-groups.ts),
// each place located in the data of its dates (return-places.ts), what each level taxes of it
// (taxable-bases.ts), and the rows summed (returns-ledger.ts). A transaction that cannot be placed
// or rated is counted in `unassigned` with the reason, never dropped.
import { feedTraits, type FeedKind } from '../../../snapshot-contract/feed-traits.ts'
import type { Authority } from '../../../snapshot-contract/rate-index.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import type { EarlierSnapshots } from '../../lookup/earlier-snapshots.ts'
import { factsOf, type SnapshotView } from '../../lookup/snapshot-facts.ts'
import { decideSourcing } from '../../order-tax/sourcing.ts'
import { stateRules, type StateRules } from '../../order-tax/state-rules.ts'
import { formatMoney } from '../../sale/money.ts'
import { stateName } from '../../sale/state-code.ts'
import type { ItemizedTransaction, ReturnGroup } from '../../store/return-groups.ts'
import type { TransactionStore } from '../../store/transaction-store.ts'
import { ReturnPlaces } from './return-places.ts'
import type { ReturnsBody } from './returns-body.ts'
import { dueCents, ReturnsLedger, type Described, type FilingCode, type LedgerRow, type UnassignedRow } from './returns-ledger.ts'
import { rateSegments, segmentOf, type RateSegment } from './rate-segments.ts'
import { EXEMPT_KINDS, groupBases, itemBases, noExemptParts, type Bases, type ExemptParts, type UnappliedCode } from './taxable-bases.ts'

export type ReturnPeriod = { state: string; from: string; to: string }

export type ReturnSources = { current: SnapshotView; earlier: EarlierSnapshots; transactions: TransactionStore }

/** Placed groups between two yields to the event loop: lookups keep being answered while a return is summed. */
const YIELD_EVERY = 2_000
const yieldToLookups = () => new Promise<void>((resolve) => setImmediate(resolve))

export async function salesTaxReturn(sources: ReturnSources, accountId: string, period: ReturnPeriod): Promise<ReturnsBody> {
  const { state, from, to } = period
  const rules = stateRules(state)!
  const segments = await rateSegments(sources.current, sources.earlier, state, from, to)
  const rows = await sources.transactions.returnRows(accountId, {
    state,
    from,
    to,
    origin: rules.sourcing === 'origin',
    breaks: segments.slice(1).map((segment) => segment.from),
    itemizeAbove: rules.localItemCap?.perItem ?? null,
  })
  const work = new ReturnWork(state, rules, segments)
  let placed = 0
  for (const group of rows.groups) {
    work.addGroup(group)
    if (++placed % YIELD_EVERY === 0) await yieldToLookups()
  }
  for (const transaction of rows.itemized) {
    work.addItemized(transaction)
    if (++placed % YIELD_EVERY === 0) await yieldToLookups()
  }
  return work.body(period, sources.current.id)
}

/** One return being summed: the ledger, and what it must say beside the rows. */
class ReturnWork {
  readonly ledger = new ReturnsLedger()
  readonly #places: ReturnPlaces
  readonly #stacks = new Map<string, Authority[]>()
  readonly #described = new Map<SnapshotView, Map<string, Described>>()
  readonly #unapplied = new Map<string, { reason: string; transactions: number }>()
  readonly #warnings = new Map<string, { message: string; transactions: number }>()

  constructor(
    readonly state: string,
    readonly rules: StateRules,
    readonly segments: readonly RateSegment[],
  ) {
    this.#places = new ReturnPlaces(state)
  }

  addGroup(group: ReturnGroup): void {
    this.#place(group, this.segments[group.segment]!, group.count, group.amount, group.salesTax, () => groupBases(group.exemption, group.amount, group.shipping, this.rules))
  }

  addItemized(transaction: ItemizedTransaction): void {
    const amount = BigInt(transaction.amount)
    const codes = new Map<string, string>()
    this.#place(transaction, this.segments[segmentOf(this.segments, transaction.date)]!, 1, amount, BigInt(transaction.salesTax), (countyFips) =>
      itemBases(transaction, this.rules, countyFips, this.state, ({ code, reason }: UnappliedCode) => codes.set(code, reason)),
    )
    for (const [code, reason] of codes) {
      const known = this.#unapplied.get(code) ?? { reason, transactions: 0 }
      known.transactions += 1
      this.#unapplied.set(code, known)
    }
  }

  #place(where: { zip: string | null; city: string | null }, segment: RateSegment, count: number, amount: bigint, salesTax: bigint, bases: (countyFips: string | null) => Bases): void {
    const unassigned = (reason: Parameters<ReturnsLedger['addUnassigned']>[0], message: string) => this.ledger.addUnassigned(reason, message, where.zip, count, amount, salesTax)
    const { data } = segment
    if (!data) return unassigned('rates_not_held', `no ${this.state} rates are held for ${segment.from} to ${segment.to}`)
    if (where.zip === null) return unassigned('origin_without_from_zip', `${this.state} sources an in-state seller's sales to the seller's location, and the transaction has no from_zip`)
    const placed = this.#places.place(data.view, where.zip, where.city, segment.from)
    if (!placed.ok) return unassigned(placed.reason, placed.message)
    const authorities = this.#authorities(data.view, placed.candidate.stack, segment.from)
    if (authorities.filter((authority) => authority.level === 'state').length !== 1) {
      return unassigned('no_state_rate', `the place of ZIP ${where.zip} has no single ${this.state} state rate in force on ${segment.from}`)
    }
    for (const { code, message } of placed.warnings) {
      const known = this.#warnings.get(code) ?? { message, transactions: 0 }
      known.transactions += count
      this.#warnings.set(code, known)
    }
    this.ledger.add({
      authorities,
      bases: bases(placed.candidate.county?.fips ?? null),
      count,
      amount,
      salesTax,
      defaultChoice: placed.defaultChoice,
      describe: (authority) => this.#describe(data.view, authority),
    })
  }

  #authorities(view: SnapshotView, stack: number[], day: string): Authority[] {
    const key = `${view.id}|${stack.join(',')}|${day}`
    let authorities = this.#stacks.get(key)
    if (!authorities) this.#stacks.set(key, (authorities = view.rates.authoritiesOn(stack, day)))
    return authorities
  }

  #describe(view: SnapshotView, authority: Authority): Described {
    let byCode = this.#described.get(view)
    if (!byCode) this.#described.set(view, (byCode = new Map()))
    const key = `${authority.level}|${authority.code}`
    let described = byCode.get(key)
    if (!described) byCode.set(key, (described = { name: authority.name, filing: filingCodeOf(view, this.state, authority) }))
    return described
  }

  body(period: ReturnPeriod, snapshot: string): ReturnsBody {
    const rows = this.ledger.rows()
    const stateRows = rows.filter((row) => row.level === 'state')
    const exempt = noExemptParts()
    for (const row of stateRows) for (const kind of EXEMPT_KINDS) exempt[kind] += row.exempt[kind]
    const taxDue = rows.reduce((sum, row) => sum + dueCents(row), 0n)
    return {
      state: period.state,
      name: stateName(period.state),
      period: { from: period.from, to: period.to },
      snapshot,
      rows: rows.map(rowBody),
      unassigned: this.ledger.unassigned().map(unassignedBody),
      totals: {
        transactions: this.ledger.transactions,
        gross_sales: formatMoney(this.ledger.gross),
        exempt_sales: exemptBody(exempt),
        taxable_sales: formatMoney(stateRows.reduce((sum, row) => sum + row.taxable, 0n)),
        tax_due: formatMoney(taxDue * 100n),
        tax_collected: formatMoney(this.ledger.collected),
        difference: formatMoney(this.ledger.collected - taxDue * 100n),
      },
      sources: this.#sources(),
      notices: this.#notices(),
    }
  }

  #sources(): ReturnsBody['sources'] {
    const listed: ReturnsBody['sources'] = []
    for (const { from, to, data } of this.segments) {
      const last = listed.at(-1)
      const snapshot = data?.snapshot ?? null
      const edition = data?.edition ?? null
      if (last && last.snapshot === snapshot && last.edition === edition && last.data === (data?.kind ?? 'none')) {
        last.to = to
        continue
      }
      listed.push({ from, to, data: data?.kind ?? 'none', snapshot, edition, feed: data?.feed ?? null, source_kind: data?.sourceKind ?? null })
    }
    return listed
  }

  #notices(): ReturnsBody['notices'] {
    const notices: ReturnsBody['notices'] = []
    const unrated = this.ledger.unassigned().find((row) => row.reason === 'rates_not_held')
    for (const source of this.#sources()) {
      if (source.data === 'none') {
        notices.push({ code: 'rates_not_held', message: `No ${this.state} rates are held for ${source.from} to ${source.to} (no edition the snapshot holds, nor an earlier snapshot, covers those days): their transactions are unassigned, and their tax due is not known.`, transactions: unrated?.transactions ?? 0 })
      } else if (source.source_kind === 'aggregator') {
        notices.push({ code: 'aggregator_rates', message: `The ${this.state} rates for ${source.from} to ${source.to} are an aggregator's estimate (${source.feed} edition ${source.edition}), not the state's own: check them against the state's rate tables before filing. Their jurisdiction codes are not the state's.`, transactions: null })
      }
    }
    for (const [code, { reason, transactions }] of this.#unapplied) {
      notices.push({ code: 'product_code_not_applied', message: `product_tax_code ${code} is ${reason}: its line items were counted as general goods, taxed at every level.`, transactions })
    }
    if (this.rules.shipping === 'unverified') {
      notices.push({ code: 'shipping_rule_unverified', message: `The rules table has no verified shipping rule for ${this.state} (${this.rules.freight}): shipping was taxed as its freight_taxable flag (${this.rules.freightTaxable}) says.`, transactions: null })
    }
    if (this.rules.sourcing === 'mixed') {
      notices.push({ code: 'mixed_sourcing', message: decideSourcing(this.state, { state: this.state, zip5: null }).warning!.message, transactions: null })
    }
    for (const [code, { message, transactions }] of this.#warnings) notices.push({ code, message: `${message} (the first place so answered)`, transactions })
    return notices
  }
}

/** The code the state's return names the authority by, as its feed gives it (feed-traits.ts `filingCodes`); null where it gives none. */
function filingCodeOf(view: SnapshotView, state: string, authority: Authority): FilingCode | null {
  const feed = factsOf(view).record(state)?.feed as FeedKind | undefined
  const trait = feed ? feedTraits(feed).filingCodes[authority.level] : undefined
  if (!trait) return null
  if (trait.kept === 'code') return { code: authority.code, system: trait.system }
  const own = view.rates.filingCode(state, authority.level, authority.code)
  return own ? { code: own, system: trait.system } : null
}

const exemptBody = (exempt: ExemptParts) => Object.fromEntries(EXEMPT_KINDS.map((kind) => [kind, formatMoney(exempt[kind])])) as ReturnsBody['totals']['exempt_sales']

function rowBody(row: LedgerRow): ReturnsBody['rows'][number] {
  const due = dueCents(row) * 100n
  return {
    jurisdiction: { level: row.level, code: row.code, name: row.name || null },
    filing_code: row.filing,
    rate: formatRate(row.rate),
    transactions: row.transactions,
    gross_sales: formatMoney(row.gross),
    exempt_sales: exemptBody(row.exempt),
    taxable_sales: formatMoney(row.taxable),
    tax_due: formatMoney(due),
    tax_collected: formatMoney(row.collected),
    difference: formatMoney(row.collected - due),
    default_choice: { transactions: row.defaultTransactions, gross_sales: formatMoney(row.defaultGross) },
  }
}

const unassignedBody = (row: UnassignedRow): ReturnsBody['unassigned'][number] => ({
  reason: row.reason,
  message: row.message,
  transactions: row.transactions,
  gross_sales: formatMoney(row.gross),
  tax_collected: formatMoney(row.collected),
  zips: [...row.zips].sort(),
})
