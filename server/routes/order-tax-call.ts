// One order-tax call as both order-tax routes make it (TaxJar's POST /taxjar/v2/taxes and POST
// /v1/portability/taxes): the body read against the snapshot in service, then the engine with the
// caller's registration list and customers, and the server's unknown-code policy.
import type { RouteContext } from '../dispatch/route.ts'
import { lookupSources } from '../lookup/history-source.ts'
import type { OrderTaxInput } from '../order-tax/order-tax-input.ts'
import { orderTax, type OrderTax } from '../order-tax/order-tax.ts'
import { readOrderTax } from '../order-tax/order-tax-request.ts'

export async function orderTaxCall(context: RouteContext<'key', unknown, unknown, OrderTaxInput>): Promise<OrderTax> {
  const { body, caller, store, snapshot, settings, now } = context
  const request = readOrderTax(body, snapshot.rates)
  const { registrations, customers } = store
  return orderTax(request, {
    sources: lookupSources(snapshot, settings.geocoder),
    registrations: () => registrations.list(caller.account.id),
    customer: (customerId) => customers.get(caller.account.id, customerId),
    unknownCodes: settings.portability.unknownTaxCodes,
    now,
  })
}
