// What a newly served snapshot announces: the rate changes it holds that were first seen after the
// last snapshot announced (first-seen.ts dates each change by the earliest snapshot before the
// served one that held it), and for each endpoint a delivery of those in its account's states
// (the nexus registration list, or every state without one: as /v1/changes lists by default).
// One event: its id is shared by the deliveries to each endpoint.
import { randomBytes } from 'node:crypto'
import * as z from 'zod'
import { changeIdentity, compareChanges } from '../../snapshot-contract/rate-changes.ts'
import { changeItem, RateChangeItem } from '../changes/changes-feed.ts'
import { firstSeenOf } from '../changes/first-seen.ts'
import { stateChanges, type StateChange } from '../changes/state-changes.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import type { AnnouncementPlan, NewDelivery, WebhookEndpoint } from '../store/webhooks.ts'

export const WEBHOOK_EVENT_TYPE = 'rate_changes.announced'

export const WebhookEvent = z
  .object({
    id: z.string().describe('the delivery id (Taxatlas-Delivery): the same on every attempt of this delivery, so a receiver can drop a repeat'),
    event_id: z.string().describe("the event's id, shared by its deliveries to each endpoint and by any redelivery of them"),
    type: z.literal(WEBHOOK_EVENT_TYPE),
    created_at: z.string().describe('when the event was made, ISO 8601 UTC'),
    webhook_id: z.string().describe('the endpoint it was made for'),
    snapshot: z.string().describe('the snapshot that announced the changes'),
    previous_snapshot: z.string().describe('the snapshot announced before it: the changes were first seen after that one'),
    changes: z.array(RateChangeItem).describe("the changes new in this snapshot, in the account's states, in the order of /v1/changes, each with the account's exposure to it (impact, as /v1/changes?impact=true gives it)"),
  })
  .meta({ id: 'WebhookRateChanges' })
export type WebhookEvent = z.infer<typeof WebhookEvent>

/** A change to announce: its identity (never announced twice), its state, and its item as JSON text. */
export type NewChange = { identity: string; state: string; json: string; change: StateChange }

/** Per account, the JSON text of its exposure to each change (by identity): spliced into the change's item. */
export type AccountImpacts = ReadonlyMap<string, ReadonlyMap<string, string>>

const withImpact = (change: NewChange, impacts: ReadonlyMap<string, string> | undefined): NewChange => {
  const impact = impacts?.get(change.identity)
  return impact ? { ...change, json: `${change.json.slice(0, -1)},"impact":${impact}}` } : change
}

/** The changes `snapshot` holds first seen after snapshot `after`, in the feed's order. */
export async function changesFirstSeenAfter(snapshot: Snapshot, after: string, today: string): Promise<NewChange[]> {
  const found: { change: StateChange; json: string }[] = []
  for (const state of snapshot.rates.states) {
    const seenOf = await firstSeenOf(snapshot, state)
    for (const change of stateChanges(snapshot, state)) {
      const seen = seenOf(change)
      if (seen.snapshot > after) found.push({ change, json: JSON.stringify(changeItem(change, seen, today, false)) })
    }
  }
  found.sort((a, b) => compareChanges(a.change, b.change))
  return found.map(({ change, json }) => ({ identity: changeIdentity(change), state: change.state, json, change }))
}

export const newDeliveryId = () => `whd_${randomBytes(12).toString('base64url')}`
export const newEventId = () => `evt_${randomBytes(12).toString('base64url')}`

/**
 * The plan for the store (webhooks.ts: announce). `statesOf`: per account, its nexus states, or
 * null for every state. Each delivery's body is written here once, with its id: every attempt
 * sends the same bytes.
 */
export function announcementPlan(input: {
  snapshot: string
  after: string | null
  at: string
  changes: readonly NewChange[]
  endpoints: readonly WebhookEndpoint[]
  statesOf: ReadonlyMap<string, ReadonlySet<string> | null>
  impacts?: AccountImpacts
}): AnnouncementPlan {
  const { snapshot, after, at, changes } = input
  return {
    snapshot,
    at,
    after,
    candidates: changes.map((change) => change.identity),
    deliveries(fresh) {
      if (after === null) return []
      const eventId = newEventId()
      const deliveries: NewDelivery[] = []
      for (const endpoint of input.endpoints) {
        const states = input.statesOf.get(endpoint.accountId) ?? null
        const listed = changes.filter((change) => fresh.has(change.identity) && (states === null || states.has(change.state))).map((change) => withImpact(change, input.impacts?.get(endpoint.accountId)))
        if (!listed.length) continue
        const id = newDeliveryId()
        const head: Omit<WebhookEvent, 'changes'> = { id, event_id: eventId, type: WEBHOOK_EVENT_TYPE, created_at: at, webhook_id: endpoint.id, snapshot, previous_snapshot: after }
        const body = `${JSON.stringify(head).slice(0, -1)},"changes":[${listed.map((change) => change.json).join(',')}]}`
        deliveries.push({ id, eventId, eventType: WEBHOOK_EVENT_TYPE, webhookId: endpoint.id, accountId: endpoint.accountId, changeCount: listed.length, body })
      }
      return deliveries
    },
  }
}
