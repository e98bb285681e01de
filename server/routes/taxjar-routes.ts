// Every TaxJar-compatible route (under /taxjar/v2), in one list for the registry. A new TaxJar
// endpoint is one module (path under TAXJAR_BASE, errorFormat TAXJAR_ERRORS) appended here.
import type { Route } from '../dispatch/route.ts'
import { taxjarNexusRegionsRoute } from './taxjar-nexus.ts'
import { taxjarRatesRoute } from './taxjar-rates.ts'
import { taxjarOrderRoutes, taxjarRefundRoutes } from './taxjar-transactions.ts'

export const TAXJAR_ROUTES: Route[] = [...taxjarOrderRoutes, ...taxjarRefundRoutes, taxjarNexusRegionsRoute, taxjarRatesRoute]
