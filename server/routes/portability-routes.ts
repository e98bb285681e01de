// The portability routes (rates, order tax, the write side, nexus and returns), in one list for the registry.
import { backfillRoute } from './portability-backfill.ts'
import { nexusHealthRoute, nexusListRoute, nexusSetRoute } from './portability-nexus.ts'
import { createOrderRoute, showOrderRoute } from './portability-orders.ts'
import { portabilityRatesRoute } from './portability-rates.ts'
import { returnsRoute } from './portability-returns.ts'
import { portabilityTaxesRoute } from './portability-taxes.ts'
import type { Route } from '../dispatch/route.ts'

export const PORTABILITY_ROUTES: Route[] = [portabilityRatesRoute, portabilityTaxesRoute, createOrderRoute, showOrderRoute, backfillRoute, nexusListRoute, nexusSetRoute, nexusHealthRoute, returnsRoute]
