// Request and response types of the API, from the server's zod schemas through type-only imports:
// erased at run time, so the client still needs nothing but fetch, and they change with the
// server's schemas. test/client-types.test.ts pins the few written by hand.
import type { z } from 'zod'
import type { FreshnessEnvelope } from '../snapshot-contract/manifest.ts'
import type { ValidationIssue as ValidationIssueSchema } from '../server/base/errors.ts'
import type { FullLookupBody, SimpleLookupBody } from '../server/lookup/tax-response.ts'
import type { OrderView } from '../server/portability/order-view.ts'
import type { NexusHealthBody } from '../server/portability/nexus/nexus-health-body.ts'
import type { NativeOrderTaxBody } from '../server/portability/order-tax-native.ts'
import type { OrderTaxInput as OrderTaxInputSchema } from '../server/taxjar/order-tax-input.ts'
import type { TransactionInput } from '../server/portability/transaction-input.ts'
import type { AccountBody } from '../server/routes/account.ts'
import type { BackfillReportBody } from '../server/routes/portability-backfill.ts'
import type { HealthBody } from '../server/routes/health.ts'

/**
 * A response object as the server may send it: every documented field typed, and any field a
 * newer server adds accepted and kept (spec 9: typed clients tolerate new response fields).
 */
export type Open<T> = T extends readonly (infer Item)[]
  ? Open<Item>[]
  : T extends object
    ? { [K in keyof T]: Open<T[K]> } & { [field: string]: unknown }
    : T

export type TaxSimpleResponse = Open<z.output<typeof SimpleLookupBody>>
export type TaxFullResponse = Open<z.output<typeof FullLookupBody>>
export type FreshnessResponse = Open<z.output<typeof FreshnessEnvelope>>
export type HealthResponse = Open<z.output<typeof HealthBody>>
export type AccountResponse = Open<z.output<typeof AccountBody>>
export type BackfillReport = Open<z.output<typeof BackfillReportBody>>
export type NexusHealthResponse = Open<z.output<typeof NexusHealthBody>>
export type Order = Open<z.output<typeof OrderView>>
/** What GET /v1/portability/orders/{transaction_id} answers. */
export type OrderResponse = Open<{ order: z.output<typeof OrderView> }>
export type ValidationIssue = Open<z.output<typeof ValidationIssueSchema>>
/** What POST /v1/portability/taxes answers: money as decimal strings, rates as 5-decimal strings. */
export type OrderTaxResponse = Open<NativeOrderTaxBody>
/** An order to tax (TaxJar's fields). Unknown keys are refused by the server (422), so the type has none. */
export type OrderTaxInput = z.input<typeof OrderTaxInputSchema>

// The routes of orders and nexus registrations keep these schemas private: the types are written
// here, and test/client-types.test.ts fails when they stop matching the routes' schemas.
export type SavedOrderBody = { result: 'created' | 'updated' | 'unchanged'; order: z.output<typeof OrderView> }
export type NexusRegistrationsBody = { regions: { state: string; name: string; registered_since: string | null; updated_at: string }[] }
/** One entry of the list PUT /v1/portability/nexus replaces: a 2-letter code or state name, and YYYY-MM-DD. */
export type NexusRegionInput = { state: string; registered_since?: string | null }

/** What POST /v1/portability/orders answers: `created` (201), or `updated` / `unchanged` (200) for a known transaction. */
export type SavedOrder = Open<SavedOrderBody>
/** The registration list of GET and PUT /v1/portability/nexus. */
export type NexusRegistrations = Open<NexusRegistrationsBody>

/** An order or refund as POST /v1/portability/orders and the backfill take it; unknown keys are ignored by the server. */
export type OrderInput = z.input<typeof TransactionInput> & { [field: string]: unknown }

// GET /v1/tax/{state}: exactly one input mode per call. `never` keys make a mixed call a type error.
type NoInput = { zip?: never; address?: never; city?: never; location?: never; lat?: never; lng?: never }
export type ZipInput = Omit<NoInput, 'zip'> & { zip: string }
export type AddressInput = Omit<NoInput, 'address' | 'city' | 'zip'> & { address: string; city?: string; zip?: string }
export type LocationInput = Omit<NoInput, 'location'> & { location: string }
export type CoordinatesInput = Omit<NoInput, 'lat' | 'lng'> & { lat: number; lng: number }
export type TaxInput = ZipInput | AddressInput | LocationInput | CoordinatesInput

export type TaxOptions = {
  /** `simple` (default) or `full`: the response shape */
  mode?: 'simple' | 'full'
  /** refuse input that would be normalized (400 INVALID_INPUT with `error.correction`) instead of repairing it */
  strict?: boolean
  /** answer for this date: YYYY-MM-DD, or a Date (its UTC day) */
  as_of?: string | Date
  /** answer for the first day of this quarter: 20262 or 2026Q2 (not with as_of) */
  period?: string
}
export type TaxParams = TaxInput & TaxOptions

export type PortabilityRatesFormat = 'native' | 'taxjar' | 'avalara'
type NoRatesInput = { address?: never; street?: never; city?: never; state?: never; zip?: never; lat?: never; lng?: never }
export type PortabilityRatesInput =
  | (Omit<NoRatesInput, 'address'> & { address: string })
  | (Omit<NoRatesInput, 'street' | 'city' | 'state' | 'zip'> & { street: string; city?: string; state?: string; zip?: string })
  | (Omit<NoRatesInput, 'city' | 'state' | 'zip'> & { zip: string; city?: string; state?: string })
  | (Omit<NoRatesInput, 'lat' | 'lng'> & { lat: number; lng: number })
export type PortabilityRatesParams = PortabilityRatesInput & {
  /** response shape: `native` (default), `taxjar` or `avalara` */
  format?: PortabilityRatesFormat
  seller_state?: string
  seller_zip?: string
}
/**
 * GET /v1/portability/rates answers "an object with free-form properties" (spec 4.2) whose shape
 * depends on `format`; typed precisely once the route exports its schemas.
 */
export type PortabilityRatesResponse = { [field: string]: unknown }

export type NexusHealthParams = {
  /** warning band for this request, e.g. 0.10 (default: the server setting, 0.25) */
  band?: number | string
}

export type GetOrderParams = { provider?: string; kind?: 'order' | 'refund' }
