// GET /v1/changes: every rate change the served snapshot knows, past and upcoming, with the ZIPs it
// touches, the source file that announced it and when taxatlas first saw it; with impact=true, the
// account's exposure to each. Without `states`, an account with a nexus registration list sees its
// own states.
import * as z from 'zod'
import { ValidationErrorBody } from '../base/errors.ts'
import { ChangesBody, changesPage, IMPACT_DAYS, type ChangesNotice, type ChangesScope } from '../changes/changes-feed.ts'
import { DEFAULT_LIMIT, IMPACT_VALUES, INCLUDE_VALUES, MAX_LIMIT, readChangesRequest } from '../changes/changes-request.ts'
import { changeImpacts } from '../portability/returns/change-impact.ts'
import { validationError } from '../http/validation.ts'
import { utcDate } from '../sale/date-window.ts'
import type { StoreParts } from '../store/store.ts'
import { defineRoute, type Caller } from '../dispatch/route.ts'

const ChangesQuery = z.object({
  states: z.string().optional().describe("comma-separated 2-letter codes, e.g. GA,MN; default: the account's nexus registration list when it has one, else every state"),
  from: z.string().optional().describe('only changes effective on or after this date, YYYY-MM-DD'),
  to: z.string().optional().describe('only changes effective on or before this date, YYYY-MM-DD'),
  since: z.string().optional().describe('only changes first seen after this snapshot id (e.g. 2026-11-21T03-00-00-000Z), or first seen on or after this date (YYYY-MM-DD, UTC)'),
  include: z.string().optional().describe(`${INCLUDE_VALUES.join(', ')}: list the ZIPs each change touches`),
  impact: z.string().optional().describe(`${IMPACT_VALUES.join(' or ')} (default false): true gives each change the account's exposure, from its stored transactions of the last ${IMPACT_DAYS} days`),
  limit: z.string().optional().describe(`changes per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  cursor: z.string().optional().describe('next_cursor of the previous page'),
})

/** The account's webhook endpoints that were disabled, each a notice. */
async function noticesOf(store: StoreParts, caller: Caller): Promise<ChangesNotice[]> {
  return (await store.webhooks.list(caller.account.id)).flatMap((endpoint) =>
    endpoint.disabledAt
      ? [{ type: 'webhook_disabled' as const, webhook_id: endpoint.id, url: endpoint.url, disabled_at: endpoint.disabledAt, message: `${endpoint.disabledReason ?? 'disabled'}. Enable it again with PATCH /v1/webhooks/${endpoint.id} {"enabled": true}; changes it missed are listed here with since.` }]
      : [],
  )
}

async function scopeOf(states: string[] | null, store: StoreParts, caller: Caller, served: readonly string[]): Promise<ChangesScope> {
  if (states) return { states, from: 'query' }
  const registered = await store.registrations.list(caller.account.id)
  if (registered.length) return { states: registered.map((r) => r.state).sort(), from: 'nexus' }
  return { states: [...served].sort(), from: 'all' }
}

export const changesRoute = defineRoute({
  method: 'GET',
  path: '/v1/changes',
  operationId: 'listRateChanges',
  summary: 'Rate changes known to the served snapshot, past and upcoming',
  description: [
    'A change is a day on which a jurisdiction\'s rate differs from the day before\'s: a new rate, a jurisdiction that starts (old_rate null) or ends (new_rate null).',
    'Listed by effective date, then state, level and code; paged by cursor (next_cursor).',
    'first_seen names the earliest snapshot held whose data for the state had the change.',
    'notices lists the account\'s webhook endpoints that were disabled (POST /v1/webhooks).',
    `With impact=true each change carries impact: the account's transactions of the last ${IMPACT_DAYS} days placed in the jurisdiction, their sales and taxable sales, and the tax difference the new rate would have made on them.`,
  ].join(' '),
  tags: ['lookup'],
  auth: 'key',
  query: ChangesQuery,
  responses: {
    200: { description: 'One page of changes.', schema: ChangesBody },
    422: { description: 'A parameter that cannot be read: an unknown state code, a date that is not YYYY-MM-DD, from after to, a malformed since or cursor, a limit out of range, an unknown include value, an impact other than true or false (each named in detail).', schema: ValidationErrorBody },
  },
}).handle(async ({ query, snapshot, store, caller, now }) => {
  const reading = readChangesRequest(query)
  if (!reading.ok) throw validationError(reading.detail)
  const scope = await scopeOf(reading.request.states, store, caller, snapshot.rates.states)
  const today = utcDate(now)
  const impactOf = (changes: Parameters<typeof changeImpacts>[2]) => changeImpacts({ current: snapshot, transactions: store.transactions }, caller.account.id, changes, today)
  return { status: 200, body: await changesPage(snapshot, reading.request, scope, today, await noticesOf(store, caller), impactOf) }
})
