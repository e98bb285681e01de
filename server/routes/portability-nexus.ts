// The account's nexus registration list (GET, and PUT to replace it) and nexus health: rolling
// 12-month totals per state against each state's recorded threshold rule.
import * as z from 'zod'
import { validationError } from '../http/validation.ts'
import { rollingTwelveMonths, utcDate } from '../sale/date-window.ts'
import { parseBand } from '../portability/nexus/nexus-band.ts'
import { nexusHealth } from '../portability/nexus/nexus-health.ts'
import { parseRegions } from '../portability/nexus/registration-input.ts'
import { stateName } from '../sale/state-code.ts'
import type { Registration } from '../store/nexus-registrations.ts'
import { NexusHealthBody } from '../portability/nexus/nexus-health-body.ts'
import { defineRoute } from '../dispatch/route.ts'

const RegionView = z.object({
  state: z.string(),
  name: z.string(),
  registered_since: z.string().nullable().describe('YYYY-MM-DD as set; null when not given'),
  updated_at: z.string(),
})
const RegistrationList = z.object({ regions: z.array(RegionView) }).meta({ id: 'NexusRegistrations' })

const RegistrationInput = z
  .object({
    regions: z
      .array(
        z.object({
          state: z.string().describe('2-letter code or state name'),
          registered_since: z.string().nullable().optional().describe('YYYY-MM-DD'),
        }),
      )
      .max(60),
  })
  .meta({ id: 'NexusRegistrationsInput' })

const listOf = (registrations: readonly Registration[]) => ({
  regions: registrations.map((r) => ({ state: r.state, name: stateName(r.state), registered_since: r.registeredSince, updated_at: r.updatedAt })),
})

export const nexusListRoute = defineRoute({
  method: 'GET',
  path: '/v1/portability/nexus',
  operationId: 'listNexusRegistrations',
  summary: 'The states you are registered in',
  description: 'The registration list as last set with PUT /v1/portability/nexus (empty until then). Nothing here is computed.',
  tags: ['portability'],
  auth: 'key',
  responses: { 200: { description: 'The registration list, in state order.', schema: RegistrationList } },
}).handle(async ({ caller, store }) => {
  const { registrations } = store
  return { status: 200, body: listOf(await registrations.list(caller.account.id)) }
})

export const nexusSetRoute = defineRoute({
  method: 'PUT',
  path: '/v1/portability/nexus',
  operationId: 'setNexusRegistrations',
  summary: 'Replace the list of states you are registered in',
  description: 'The body `{regions: [{state, registered_since?}]}` replaces the whole list (send `[]` to clear it).',
  tags: ['portability'],
  auth: 'key',
  body: RegistrationInput,
  responses: { 200: { description: 'The list as stored.', schema: RegistrationList } },
}).handle(async ({ body, caller, store, now }) => {
  const parsed = parseRegions(body.regions)
  if (!parsed.ok) throw validationError(parsed.detail)
  const { registrations } = store
  return { status: 200, body: listOf(await registrations.replace(caller.account.id, parsed.regions, now)) }
})

export const nexusHealthRoute = defineRoute({
  method: 'GET',
  path: '/v1/portability/nexus/health',
  operationId: 'nexusHealth',
  summary: 'Rolling 12-month totals per state against each economic-nexus threshold',
  description: [
    'Totals are over the 12 months ending today (UTC): transaction dates from the day after the same day a year ago through today, from orders and backfilled history.',
    '`order_total` is counted orders minus counted refunds (amount: shipping included, sales tax excluded); `transaction_count` counts orders only.',
    'What counts follows each state\'s recorded rule (`counting`): exempt sales are left out where only taxable sales count, wholesale where only retail sales count; marketplace sales are left out where the rules table says "excluded".',
    'Status: no_threshold (no sales tax or no threshold), exceeded (the rule is met), approaching (within the band of a threshold; near_threshold and listed in `alerts`), under_threshold.',
    'The band is TAXATLAS_NEXUS_BAND (0.25 by default), or `band` for one request.',
  ].join(' '),
  tags: ['portability'],
  auth: 'key',
  query: z.object({ band: z.string().optional().describe('warning band for this request, e.g. 0.10 (default: the server setting)') }),
  responses: { 200: { description: 'Every state of the rules table, in code order.', schema: NexusHealthBody } },
}).handle(async ({ query, caller, store, now, settings }) => {
  let band = settings.portability.nexusBandBasisPoints
  if (query.band !== undefined) {
    const parsed = parseBand(query.band)
    if (!parsed.ok) throw validationError([{ loc: ['query', 'band'], msg: parsed.reason, type: 'value_error', input: query.band }])
    band = parsed.basisPoints
  }
  const { transactions, registrations } = store
  const today = utcDate(now)
  const window = rollingTwelveMonths(today)
  const [groups, registered] = await Promise.all([transactions.stateGroups(caller.account.id, window.from, window.to), registrations.list(caller.account.id)])
  return { status: 200, body: nexusHealth({ today, window, bandBasisPoints: band, groups, registrations: registered }) }
})
