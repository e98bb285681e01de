// Every TaxJar-compatible route (under /taxjar/v2), in one list for the registry. A new TaxJar
// endpoint is one module (path under TAXJAR_BASE, errorFormat TAXJAR_ERRORS) appended here.
import type { Route } from '../dispatch/route.ts'
import { taxjarValidateAddressRoute, taxjarVatRoute } from './taxjar-addresses.ts'
import { taxjarCategoriesRoute } from './taxjar-categories.ts'
import { taxjarCustomerRoutes } from './taxjar-customers.ts'
import { taxjarNexusRegionsRoute } from './taxjar-nexus.ts'
import { taxjarRatesRoute } from './taxjar-rates.ts'
import { taxjarSummaryRatesRoute } from './taxjar-summary-rates.ts'
import { taxjarTaxesRoute } from './taxjar-taxes.ts'
import { taxjarOrderRoutes, taxjarRefundRoutes } from './taxjar-transactions.ts'

export const TAXJAR_ROUTES: Route[] = [
  taxjarTaxesRoute,
  ...taxjarOrderRoutes,
  ...taxjarRefundRoutes,
  ...taxjarCustomerRoutes,
  taxjarNexusRegionsRoute,
  taxjarRatesRoute,
  taxjarSummaryRatesRoute,
  taxjarCategoriesRoute,
  taxjarValidateAddressRoute,
  taxjarVatRoute,
]
