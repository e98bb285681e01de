// One page of the changes feed: the served snapshot's rate changes of the chosen states, filtered by
// effective date and by when they were first seen, in the feed's order from the cursor on.
import * as z from 'zod'
import { LEVELS } from '../../snapshot-contract/model.ts'
import { compareChanges } from '../../snapshot-contract/rate-changes.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import { isAfter, writeCursor } from './change-cursor.ts'
import type { ChangesRequest, Since } from './changes-request.ts'
import { firstSeenOf, type FirstSeen } from './first-seen.ts'
import { stateChanges, type StateChange } from './state-changes.ts'

export const STATES_BASES = ['query', 'nexus', 'all'] as const

const rate = z.string().nullable()

/** Days of stored transactions a change's impact is counted over, ending today. */
export const IMPACT_DAYS = 90

const ImpactMoney = z.string().describe('exact decimal string, e.g. "1234.50"; negative where refunds exceed sales')

export const ChangeImpact = z
  .object({
    window: z.object({ from: z.string(), to: z.string() }).describe(`the ${IMPACT_DAYS} days of transactions counted, by transaction date (UTC), ending today`),
    transactions: z.number().int().describe("the account's orders and refunds of those days placed in the jurisdiction (as a return places them: the destination ZIP with the city sent, or the seller's ZIP for an origin-sourced sale)"),
    gross_sales: ImpactMoney.describe('their sales less refunds'),
    taxable_sales: ImpactMoney.describe("what the jurisdiction's level taxes of them (exemptions, exempt products and the state's freight rule applied)"),
    tax_difference: z.string().describe('taxable_sales × (new_rate − old_rate), rounded to the cent: the tax the new rate would have added (negative: taken off) on those sales'),
    default_choice: z
      .object({ transactions: z.number().int(), gross_sales: ImpactMoney })
      .describe("what of it rests on a ZIP's default candidate: the ZIP spans several jurisdictions and the city sent named none of them"),
    other_candidates: z
      .object({ transactions: z.number().int(), gross_sales: ImpactMoney })
      .describe('transactions in ZIPs the change touches that were placed outside the jurisdiction (another candidate of the ZIP): not counted above, and in it if the place was wrong'),
  })
  .meta({ id: 'RateChangeImpact' })
export type ChangeImpact = z.infer<typeof ChangeImpact>

export const RateChangeItem = z
  .object({
    state: z.string().describe('2-letter code'),
    jurisdiction: z.object({
      level: z.enum(LEVELS),
      code: z.string().describe("the source's code for the jurisdiction"),
      name: z.string().nullable().describe('as the source names it; null when the source gives no name'),
    }),
    kind: z.enum(['rate_change', 'starts', 'ends']).describe('starts: no rate before (old_rate null); ends: no rate from the effective date on (new_rate null)'),
    old_rate: rate.describe('5-decimal fraction in force the day before; null when the jurisdiction starts'),
    new_rate: rate.describe('5-decimal fraction in force from the effective date; null when the jurisdiction ends'),
    effective: z.string().describe('YYYY-MM-DD, the first day of the new rate'),
    upcoming: z.boolean().describe('the effective date is after today (UTC)'),
    zip_count: z.number().int().nonnegative().describe('ZIPs with a candidate jurisdiction stack that includes it'),
    zips: z.array(z.string()).optional().describe('those ZIPs, in order; with include=zips'),
    source: z.object({
      file: z.string().describe('the source file whose rows announced the new rate'),
      url: z.string().nullable().describe('where it was fetched, when that is a web address'),
      edition: z.string().nullable().describe('its edition as the publisher names it, when known'),
    }),
    first_seen: z.object({
      snapshot: z.string().describe('the earliest snapshot whose data for the state held the change'),
      published_at: z.string().nullable().describe('when that snapshot was generated, if known'),
      exact: z.boolean().describe('false when that snapshot is the oldest held with data of the state: an earlier one no longer held may have seen it first'),
    }),
    impact: ChangeImpact.optional().describe("the account's exposure: with impact=true, and in every rate_changes.announced delivery"),
  })
  .meta({ id: 'RateChange' })

export const ChangesNotice = z
  .object({
    type: z.literal('webhook_disabled').describe("one of the account's webhook endpoints was disabled: its deliveries stopped"),
    webhook_id: z.string(),
    url: z.string(),
    disabled_at: z.string(),
    message: z.string().describe('why, and how to enable it again'),
  })
  .meta({ id: 'ChangesNotice' })
export type ChangesNotice = z.infer<typeof ChangesNotice>

export const ChangesBody = z
  .object({
    snapshot: z.string().describe('the snapshot in service that answered'),
    states: z.array(z.string()).describe('the states listed'),
    states_from: z.enum(STATES_BASES).describe("query: the states parameter; nexus: the account's registration list; all: every state the snapshot holds"),
    today: z.string().describe('YYYY-MM-DD (UTC), the day `upcoming` is counted from'),
    changes: z.array(RateChangeItem),
    next_cursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page'),
    notices: z.array(ChangesNotice).describe("what the account must know about its subscriptions to these changes: each webhook endpoint disabled"),
  })
  .meta({ id: 'RateChanges' })
export type ChangesBody = z.infer<typeof ChangesBody>

export type ChangesScope = { states: string[]; from: (typeof STATES_BASES)[number] }

/** The account's exposure to each of `changes` (computed above this floor, from its stored transactions). */
export type ImpactOf = (changes: readonly StateChange[]) => Promise<ReadonlyMap<StateChange, ChangeImpact>>

export async function changesPage(snapshot: Snapshot, request: ChangesRequest, scope: ChangesScope, today: string, notices: ChangesNotice[] = [], impactOf?: ImpactOf): Promise<ChangesBody> {
  const listed: { change: StateChange; seen: FirstSeen }[] = []
  for (const state of scope.states) {
    const seenOf = await firstSeenOf(snapshot, state)
    for (const change of stateChanges(snapshot, state)) {
      if ((request.from && change.effective < request.from) || (request.to && change.effective > request.to)) continue
      if (request.after && !isAfter(change, request.after)) continue
      const seen = seenOf(change)
      if (request.since && !seenSince(seen, request.since)) continue
      listed.push({ change, seen })
    }
  }
  if (scope.states.length > 1) listed.sort((a, b) => compareChanges(a.change, b.change))
  const page = listed.slice(0, request.limit)
  const last = page.at(-1)
  const impacts = request.impact && impactOf ? await impactOf(page.map(({ change }) => change)) : null
  return {
    snapshot: snapshot.id,
    states: scope.states,
    states_from: scope.from,
    today,
    changes: page.map(({ change, seen }) => changeItem(change, seen, today, request.zips, impacts?.get(change))),
    next_cursor: last && listed.length > page.length ? writeCursor(last.change) : null,
    notices,
  }
}

/** A snapshot id names a time, so the ids of two snapshots compare as their times do. */
function seenSince(seen: FirstSeen, since: Since): boolean {
  if ('snapshot' in since) return seen.snapshot > since.snapshot
  return seen.published_at !== null && seen.published_at.slice(0, 10) >= since.date
}

export function changeItem(change: StateChange, seen: FirstSeen, today: string, withZips: boolean, impact?: ChangeImpact): z.infer<typeof RateChangeItem> {
  return {
    state: change.state,
    jurisdiction: { level: change.level, code: change.code, name: change.name || null },
    kind: change.oldRate === null ? 'starts' : change.newRate === null ? 'ends' : 'rate_change',
    old_rate: change.oldRate === null ? null : formatRate(change.oldRate),
    new_rate: change.newRate === null ? null : formatRate(change.newRate),
    effective: change.effective,
    upcoming: change.effective > today,
    zip_count: change.zips.length,
    ...(withZips ? { zips: [...change.zips] } : {}),
    source: change.source,
    first_seen: seen,
    ...(impact ? { impact } : {}),
  }
}
