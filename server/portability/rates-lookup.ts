// GET /v1/portability/rates without HTTP: the destination through the GET /v1/tax resolver, the
// sourcing decision, and for an in-state sale in an origin state the seller's ZIP through the same
// resolver; then the answer in the format asked for.
import type { LookupRequest } from '../lookup/lookup-request.ts'
import { lookupTax, type LookupSources } from '../lookup/resolve-lookup.ts'
import type { Billing, FullLookupBody } from '../lookup/tax-response.ts'
import { decideSourcing, type Seller } from '../order-tax/sourcing.ts'
import { avalaraRates, type AvalaraRatesBody } from './rates-avalara.ts'
import { nativeRates, type NativeRatesBody } from './rates-native.ts'
import type { RatesRequest } from './rates-request.ts'
import { taxjarRates, type TaxjarRatesBody } from './rates-taxjar.ts'

export type RatesBody = NativeRatesBody | TaxjarRatesBody | AvalaraRatesBody

/** A lookup answered in the full shape (rows, resolved place, meta). */
export async function fullLookup(request: LookupRequest, sources: LookupSources, billing: () => Billing): Promise<FullLookupBody> {
  // The request asks for the full shape, so the answer is one.
  return (await lookupTax({ ...request, shape: 'full' }, sources, billing)) as FullLookupBody
}

/** The seller's ZIP as a ZIP lookup on the same date. */
const sellerLookup = (seller: { state: string; zip5: string }, destination: LookupRequest): LookupRequest => ({
  pathState: seller.state,
  input: { mode: 'zip', zip: seller.zip5 },
  shape: 'full',
  strict: false,
  date: destination.date,
})

export async function lookupRates(request: RatesRequest, seller: Seller | null, sources: LookupSources, billing: () => Billing): Promise<RatesBody> {
  const destination = await fullLookup(request.lookup, sources, billing)
  const { sourcing, warning, origin } = decideSourcing(destination.rate.state, seller)
  const answer = origin ? await fullLookup(sellerLookup(origin, request.lookup), sources, billing) : destination
  switch (request.format) {
    case 'native':
      return nativeRates(answer, sourcing, warning)
    case 'taxjar':
      return taxjarRates(answer.rate)
    case 'avalara':
      return avalaraRates(answer)
  }
}
