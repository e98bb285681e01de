// The route registry: every public route of the API, in one list. To add an endpoint, write a
// module exporting `defineRoute({...})` and append it here; it is then routed, validated,
// authenticated, rate limited, counted and described in /openapi.json.
import { accountRoute } from './account.ts'
import { changesRoute } from './changes.ts'
import { freshnessRoute } from './freshness.ts'
import { healthRoute } from './health.ts'
import { PORTABILITY_ROUTES } from './portability-routes.ts'
import type { Route } from '../dispatch/route.ts'
import { taxRoute } from './tax.ts'
import { TAXJAR_ROUTES } from './taxjar-routes.ts'
import { WEBHOOK_ROUTES } from './webhooks.ts'

export const API_ROUTES: Route[] = [healthRoute, freshnessRoute, accountRoute, taxRoute, changesRoute, ...WEBHOOK_ROUTES, ...PORTABILITY_ROUTES, ...TAXJAR_ROUTES]
