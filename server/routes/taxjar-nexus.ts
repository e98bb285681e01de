// TaxJar's GET /v2/nexus/regions: the account's registration list (PUT /v1/portability/nexus) in
// TaxJar's shape, sorted by region name as TaxJar sorts it.
import * as z from 'zod'
import { stateName } from '../sale/state-code.ts'
import { TAXJAR_ERRORS } from '../taxjar/taxjar-error.ts'
import { TAXJAR_BASE, TAXJAR_TAGS } from '../taxjar/taxjar-paths.ts'
import { defineRoute } from '../dispatch/route.ts'

const Region = z.object({ country_code: z.string(), country: z.string(), region_code: z.string(), region: z.string() })

export const taxjarNexusRegionsRoute = defineRoute({
  method: 'GET',
  path: `${TAXJAR_BASE}/nexus/regions`,
  operationId: 'taxjarNexusRegions',
  summary: 'TaxJar: the regions you have nexus in',
  description: 'The registration list set with PUT /v1/portability/nexus.',
  tags: TAXJAR_TAGS,
  auth: 'key',
  errorFormat: TAXJAR_ERRORS,
  responses: { 200: { description: 'Registered regions.', schema: z.object({ regions: z.array(Region) }) } },
}).handle(async ({ caller, store }) => {
  const { registrations } = store
  const regions = (await registrations.list(caller.account.id))
    .map((r) => ({ country_code: 'US', country: 'United States', region_code: r.state, region: stateName(r.state) }))
    .sort((a, b) => a.region.localeCompare(b.region))
  return { status: 200, body: { regions } }
})
