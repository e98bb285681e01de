// The client's types cannot drift from the server's schemas. They are generated from them
// (client/api-types.ts; test/client-package.test.ts checks it is not stale), and checked here
// against zod's own types. Compile-time assertions (checked by `npx tsc --noEmit`): each response
// type accepts every body its schema describes and promises nothing more; the lookup's parameter
// names are the route's; `mode: 'full'` selects the full type; a call mixing input modes does not
// compile. At run time: the types of the routes whose schemas are private have the same JSON
// Schema as those routes, and the client's bundled code is client/ alone.
import { build } from 'esbuild'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as z from 'zod'
import type { FreshnessBody } from '../server/routes/freshness.ts'
import type { FullLookupBody, SimpleLookupBody } from '../server/lookup/tax-response.ts'
import type { NexusHealthBody } from '../server/portability/nexus/nexus-health-body.ts'
import type { ChangesBody } from '../server/changes/changes-feed.ts'
import type { ReturnsBody } from '../server/portability/returns/returns-body.ts'
import { returnsRoute } from '../server/routes/portability-returns.ts'
import type { NativeOrderTaxBody } from '../server/portability/order-tax-native.ts'
import type { OrderTaxInput as OrderTaxInputSchema } from '../server/order-tax/order-tax-input.ts'
import { OrderView } from '../server/portability/order-view.ts'
import type { TransactionInput } from '../server/portability/transaction-input.ts'
import type { AccountBody } from '../server/routes/account.ts'
import type { HealthBody } from '../server/routes/health.ts'
import type { BackfillReportBody } from '../server/routes/portability-backfill.ts'
import { nexusHealthRoute, nexusListRoute, nexusSetRoute } from '../server/routes/portability-nexus.ts'
import { createOrderRoute, showOrderRoute } from '../server/routes/portability-orders.ts'
import type { TaxQuery } from '../server/routes/tax.ts'
import type { WebhookPing as WebhookPingSchema } from '../server/webhooks/requested-delivery.ts'
import { WEBHOOK_ROUTES, type CreatedWebhook as CreatedWebhookSchema, type DeliveryDetailView, type DeliveryView, type WebhookChanges as WebhookChangesSchema, type WebhookInput as WebhookInputSchema, type WebhookView } from '../server/routes/webhooks.ts'
import type {
  AccountResponse,
  BackfillReport,
  GetOrderParams,
  NexusHealthParams,
  FreshnessResponse,
  HealthResponse,
  NexusHealthResponse,
  NexusRegionInput,
  NexusRegistrationsBody,
  Order,
  OrderInput,
  OrderTaxInput,
  OrderTaxResponse,
  RateChangesResponse,
  SalesTaxReturnParams,
  SalesTaxReturnResponse,
  SavedOrderBody,
  TaxFullResponse,
  TaxParams,
  TaxSimpleResponse,
  TaxatlasClient,
  CreatedWebhook,
  Webhook,
  WebhookChanges,
  WebhookDeliveriesParams,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookInput,
  WebhookPing,
} from '../client/index.ts'
import { schemaShape } from './support/client-schema-shape.ts'

type Out<S extends z.ZodType> = z.output<S>

describe('response types follow the server schemas', () => {
  it('each accepts every body of its schema, and every value of it is such a body', () => {
    expectTypeOf<Out<typeof SimpleLookupBody>>().toExtend<TaxSimpleResponse>()
    expectTypeOf<TaxSimpleResponse>().toExtend<Out<typeof SimpleLookupBody>>()
    expectTypeOf<Out<typeof FullLookupBody>>().toExtend<TaxFullResponse>()
    expectTypeOf<TaxFullResponse>().toExtend<Out<typeof FullLookupBody>>()
    expectTypeOf<Out<typeof FreshnessBody>>().toExtend<FreshnessResponse>()
    expectTypeOf<FreshnessResponse>().toExtend<Out<typeof FreshnessBody>>()
    expectTypeOf<Out<typeof HealthBody>>().toExtend<HealthResponse>()
    expectTypeOf<HealthResponse>().toExtend<Out<typeof HealthBody>>()
    expectTypeOf<Out<typeof AccountBody>>().toExtend<AccountResponse>()
    expectTypeOf<AccountResponse>().toExtend<Out<typeof AccountBody>>()
    expectTypeOf<Out<typeof ChangesBody>>().toExtend<RateChangesResponse>()
    expectTypeOf<RateChangesResponse>().toExtend<Out<typeof ChangesBody>>()
    expectTypeOf<Out<typeof ReturnsBody>>().toExtend<SalesTaxReturnResponse>()
    expectTypeOf<SalesTaxReturnResponse>().toExtend<Out<typeof ReturnsBody>>()
    expectTypeOf<Out<typeof BackfillReportBody>>().toExtend<BackfillReport>()
    expectTypeOf<BackfillReport>().toExtend<Out<typeof BackfillReportBody>>()
    expectTypeOf<Out<typeof NexusHealthBody>>().toExtend<NexusHealthResponse>()
    expectTypeOf<NexusHealthResponse>().toExtend<Out<typeof NexusHealthBody>>()
    expectTypeOf<Out<typeof OrderView>>().toExtend<Order>()
    expectTypeOf<Order>().toExtend<Out<typeof OrderView>>()
    expectTypeOf<Out<typeof NativeOrderTaxBody>>().toExtend<OrderTaxResponse>()
    expectTypeOf<OrderTaxResponse>().toExtend<Out<typeof NativeOrderTaxBody>>()
    expectTypeOf<Out<typeof WebhookView>>().toExtend<Webhook>()
    expectTypeOf<Webhook>().toExtend<Out<typeof WebhookView>>()
    expectTypeOf<Out<typeof CreatedWebhookSchema>>().toExtend<CreatedWebhook>()
    expectTypeOf<CreatedWebhook>().toExtend<Out<typeof CreatedWebhookSchema>>()
    expectTypeOf<Out<typeof DeliveryView>>().toExtend<WebhookDelivery>()
    expectTypeOf<WebhookDelivery>().toExtend<Out<typeof DeliveryView>>()
    expectTypeOf<Out<typeof DeliveryDetailView>>().toExtend<WebhookDeliveryDetail>()
    expectTypeOf<WebhookDeliveryDetail>().toExtend<Out<typeof DeliveryDetailView>>()
    expectTypeOf<Out<typeof WebhookPingSchema>>().toExtend<WebhookPing>()
    expectTypeOf<WebhookPing>().toExtend<Out<typeof WebhookPingSchema>>()
  })

  it('webhook bodies are what their routes take', () => {
    expectTypeOf<WebhookInput>().toEqualTypeOf<z.input<typeof WebhookInputSchema>>()
    expectTypeOf<WebhookChanges>().toEqualTypeOf<z.input<typeof WebhookChangesSchema>>()
  })

  it('tolerate fields a newer server adds, at any depth', () => {
    expectTypeOf<TaxSimpleResponse['added_later']>().toBeUnknown()
    expectTypeOf<TaxSimpleResponse['rate']['added_later']>().toBeUnknown()
    expectTypeOf<TaxFullResponse['rows'][number]['added_later']>().toBeUnknown()
    expectTypeOf<TaxSimpleResponse['rate']['combined_rate']>().toEqualTypeOf<string>()
  })

  it('orders take what the orders route takes, and more keys (the server ignores them)', () => {
    expectTypeOf<OrderInput>().toExtend<z.input<typeof TransactionInput>>()
    expectTypeOf<z.input<typeof TransactionInput>>().toExtend<OrderInput>()
    expectTypeOf<{ transaction_id: string; plugin: string }>().toExtend<OrderInput>()
  })

  it('order tax takes exactly what its route takes: the route refuses unknown keys', () => {
    expectTypeOf<OrderTaxInput>().toEqualTypeOf<z.input<typeof OrderTaxInputSchema>>()
    const misspelt = (client: TaxatlasClient) =>
      client.orderTax({
        to_zip: '30303',
        // @ts-expect-error a misspelt field does not compile
        line_item: [],
      })
    expectTypeOf(misspelt).toBeFunction()
  })
})

// Keys of every member of a union, `never`-typed ones included.
type KeysOfUnion<T> = T extends unknown ? keyof T : never

describe('the lookup method', () => {
  it("sends the route's query parameters, under their names", () => {
    expectTypeOf<KeysOfUnion<TaxParams>>().toEqualTypeOf<keyof z.input<typeof TaxQuery>>()
  })

  it("answers the full type for mode 'full' and the simple one otherwise", () => {
    const calls = (client: TaxatlasClient) => ({
      full: client.tax('ga', { zip: '30303', mode: 'full' }),
      simple: client.tax('ga', { zip: '30303', mode: 'simple' }),
      defaulted: client.tax('ga', { lat: 33.7, lng: -84.4 }),
      either: client.tax('ga', { location: 'Atlanta', mode: Math.random() > 0.5 ? 'full' : 'simple' }),
    })
    expectTypeOf<ReturnType<typeof calls>['full']>().resolves.toEqualTypeOf<TaxFullResponse>()
    expectTypeOf<ReturnType<typeof calls>['simple']>().resolves.toEqualTypeOf<TaxSimpleResponse>()
    expectTypeOf<ReturnType<typeof calls>['defaulted']>().resolves.toEqualTypeOf<TaxSimpleResponse>()
    expectTypeOf<ReturnType<typeof calls>['either']>().resolves.toEqualTypeOf<TaxSimpleResponse | TaxFullResponse>()
  })

  it('takes exactly one input mode', () => {
    const invalid = (client: TaxatlasClient) => [
      // @ts-expect-error ZIP and coordinates together
      client.tax('ga', { zip: '30303', lat: 1, lng: 2 }),
      // @ts-expect-error place and address together
      client.tax('ga', { location: 'Atlanta', address: '1 Main St' }),
      // @ts-expect-error lat without lng
      client.tax('ga', { lat: 1 }),
      // @ts-expect-error no input mode
      client.tax('ga', { mode: 'full' }),
      // @ts-expect-error city belongs to address mode
      client.tax('ga', { location: 'Atlanta', city: 'Atlanta' }),
    ]
    expectTypeOf(invalid).toBeFunction()
  })
})

describe('the query parameters of getOrder(), nexusHealth() and webhookDeliveries()', () => {
  it("are the routes'", () => {
    const keys = (schema: unknown) => Object.keys((schema as z.ZodObject).shape).sort()
    expect(keys(showOrderRoute.query)).toEqual(['kind', 'provider'] satisfies (keyof GetOrderParams)[])
    expect(keys(nexusHealthRoute.query)).toEqual(['band'] satisfies (keyof NexusHealthParams)[])
    expectTypeOf<keyof GetOrderParams>().toEqualTypeOf<'kind' | 'provider'>()
    expectTypeOf<keyof NexusHealthParams>().toEqualTypeOf<'band'>()
  })

  it("of salesTaxReturn() are the route's, format aside (salesTaxReturnCsv() sends it)", () => {
    expect(Object.keys((returnsRoute.query as z.ZodObject).shape).sort()).toEqual(['format', ...(['from', 'state', 'to'] satisfies (keyof SalesTaxReturnParams)[])])
    expectTypeOf<keyof SalesTaxReturnParams>().toEqualTypeOf<'from' | 'state' | 'to'>()
  })

  it("of webhookDeliveries() are the route's", () => {
    const route = WEBHOOK_ROUTES.find((r) => r.operationId === 'listWebhookDeliveries')!
    expect(Object.keys((route.query as z.ZodObject).shape)).toEqual(['limit'] satisfies (keyof WebhookDeliveriesParams)[])
    expectTypeOf<keyof WebhookDeliveriesParams>().toEqualTypeOf<'limit'>()
  })
})

// The orders and nexus routes keep their schemas private: these mirrors are compared with the
// routes' schemas at run time, and with the client's generated types at compile time.
const SavedOrderMirror = z.object({ result: z.enum(['created', 'updated', 'unchanged']), order: OrderView })
const RegistrationsMirror = z.object({
  regions: z.array(z.object({ state: z.string(), name: z.string(), registered_since: z.string().nullable(), updated_at: z.string() })),
})
const RegistrationsInputMirror = z.object({
  regions: z.array(z.object({ state: z.string(), registered_since: z.string().nullable().optional() })).max(60),
})

describe('types of private route schemas', () => {
  it('equal the mirrors (compile time)', () => {
    expectTypeOf<z.output<typeof SavedOrderMirror>>().toEqualTypeOf<SavedOrderBody>()
    expectTypeOf<z.output<typeof RegistrationsMirror>>().toEqualTypeOf<NexusRegistrationsBody>()
    expectTypeOf<z.input<typeof RegistrationsInputMirror>['regions'][number]>().toEqualTypeOf<NexusRegionInput>()
  })

  it('and the mirrors accept what the routes accept (run time)', () => {
    expect(schemaShape(createOrderRoute.responses[201].schema!)).toEqual(schemaShape(SavedOrderMirror))
    expect(schemaShape(createOrderRoute.responses[200].schema!)).toEqual(schemaShape(SavedOrderMirror))
    expect(schemaShape(showOrderRoute.responses[200].schema!)).toEqual(schemaShape(z.object({ order: OrderView })))
    expect(schemaShape(nexusListRoute.responses[200].schema!)).toEqual(schemaShape(RegistrationsMirror))
    expect(schemaShape(nexusSetRoute.responses[200].schema!)).toEqual(schemaShape(RegistrationsMirror))
    expect(schemaShape(nexusSetRoute.body!, 'input')).toEqual(schemaShape(RegistrationsInputMirror, 'input'))
  })
})

describe('the run-time code of the client', () => {
  it('is client/ alone', async () => {
    const bundle = await build({ entryPoints: ['client/index.ts'], bundle: true, write: false, format: 'esm', platform: 'neutral', metafile: true })
    expect(Object.keys(bundle.metafile.inputs).filter((file) => !file.startsWith('client/'))).toEqual([])
  })
})
