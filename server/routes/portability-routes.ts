// The portability write side and nexus routes, in one list for the registry.
import { backfillRoute } from './portability-backfill.ts'
import { nexusHealthRoute, nexusListRoute, nexusSetRoute } from './portability-nexus.ts'
import { createOrderRoute, showOrderRoute } from './portability-orders.ts'
import type { Route } from './route.ts'

export const PORTABILITY_ROUTES: Route[] = [createOrderRoute, showOrderRoute, backfillRoute, nexusListRoute, nexusSetRoute, nexusHealthRoute]
