// The typed client: one method per endpoint of the taxatlas API (spec 4), named after it.
import { transportSettings, type TaxatlasClientOptions, type TransportSettings } from './client-options.ts'
import { jsonBody, ndjsonBody } from './request-body.ts'
import type { QueryValue } from './request-url.ts'
import { send, type ApiRequest, type CallOptions } from './transport.ts'
import type {
  AccountResponse,
  BackfillReport,
  CreatedWebhook,
  FreshnessResponse,
  GetOrderParams,
  HealthResponse,
  NexusHealthParams,
  NexusHealthResponse,
  NexusRegionInput,
  NexusRegistrations,
  OrderInput,
  OrderResponse,
  OrderTaxInput,
  OrderTaxResponse,
  PortabilityRatesParams,
  PortabilityRatesResponse,
  RateChangesParams,
  RateChangesResponse,
  SalesTaxReturnParams,
  SalesTaxReturnResponse,
  SavedOrder,
  TaxFullResponse,
  TaxParams,
  TaxSimpleResponse,
  Webhook,
  WebhookChanges,
  WebhookDeliveries,
  WebhookDeliveriesParams,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookInput,
  WebhookList,
} from './types.ts'

const webhookPath = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`

const utcDay = (date: string | Date) => (typeof date === 'string' ? date : date.toISOString().slice(0, 10))

const returnQuery = ({ state, from, to }: SalesTaxReturnParams) => ({ state, from: utcDay(from), to: utcDay(to) })

export class TaxatlasClient {
  readonly #settings: TransportSettings

  constructor(options: TaxatlasClientOptions) {
    this.#settings = transportSettings(options)
  }

  #send<T>(request: ApiRequest, options?: CallOptions): Promise<T> {
    return send<T>(this.#settings, request, options)
  }

  /**
   * GET /v1/tax/{state}: the rates for a ZIP, an address, a place (`location`) or a point
   * (`lat`, `lng`) — exactly one per call. `mode: 'full'` answers the full shape.
   */
  tax(state: string, params: TaxParams & { mode: 'full' }, options?: CallOptions): Promise<TaxFullResponse>
  tax(state: string, params: TaxParams & { mode?: 'simple' }, options?: CallOptions): Promise<TaxSimpleResponse>
  tax(state: string, params: TaxParams, options?: CallOptions): Promise<TaxSimpleResponse | TaxFullResponse>
  tax(state: string, params: TaxParams, options?: CallOptions): Promise<TaxSimpleResponse | TaxFullResponse> {
    const { mode, strict, as_of, period, ...input } = params
    const query: Record<string, QueryValue> = {
      ...input,
      mode,
      strict: strict === undefined ? undefined : strict ? 'on' : 'off',
      as_of: as_of === undefined ? undefined : utcDay(as_of),
      period,
    }
    return this.#send({ method: 'GET', path: `/v1/tax/${encodeURIComponent(state)}`, query }, options)
  }

  /** GET /v1/portability/rates: a rate lookup shaped as `format` asks (`native`, `taxjar` or `avalara`). */
  portabilityRates(params: PortabilityRatesParams, options?: CallOptions): Promise<PortabilityRatesResponse> {
    return this.#send({ method: 'GET', path: '/v1/portability/rates', query: { ...params } }, options)
  }

  /**
   * POST /v1/portability/taxes: the tax of an order (TaxJar's fields: addresses, amount,
   * shipping, line_items, nexus_addresses, customer_id, exemption_type), line by line and level by
   * level. Nothing is recorded, so a retry is safe.
   */
  orderTax(order: OrderTaxInput, options?: CallOptions): Promise<OrderTaxResponse> {
    return this.#send({ method: 'POST', path: '/v1/portability/taxes', body: jsonBody(order) }, options)
  }

  /**
   * POST /v1/portability/orders: records an order or refund for nexus tracking. The server keys
   * it by (provider, transaction_id, kind), so a retried call answers `unchanged` instead of
   * recording it twice.
   */
  createOrder(order: OrderInput, options?: CallOptions): Promise<SavedOrder> {
    return this.#send({ method: 'POST', path: '/v1/portability/orders', body: jsonBody(order) }, options)
  }

  /** GET /v1/portability/orders/{transaction_id}: a recorded order (or, with `kind: 'refund'`, refund). */
  getOrder(transactionId: string, params: GetOrderParams = {}, options?: CallOptions): Promise<OrderResponse> {
    const path = `/v1/portability/orders/${encodeURIComponent(transactionId)}`
    return this.#send({ method: 'GET', path, query: { ...params } }, options)
  }

  /**
   * POST /v1/portability/transactions/backfill: 12 to 24 months of history. An array is sent as
   * one JSON body (retried like any call); any other iterable, sync or async, is streamed as
   * NDJSON without being held in memory, and is retried only while none of its rows was read.
   * For a streamed body the timeout starts once the last row is sent.
   */
  backfill(rows: readonly OrderInput[] | Iterable<OrderInput> | AsyncIterable<OrderInput>, options?: CallOptions): Promise<BackfillReport> {
    const body = Array.isArray(rows) ? jsonBody(rows) : ndjsonBody(rows)
    return this.#send({ method: 'POST', path: '/v1/portability/transactions/backfill', body }, options)
  }

  /** GET /v1/portability/nexus: the states the account is registered in. */
  nexus(options?: CallOptions): Promise<NexusRegistrations> {
    return this.#send({ method: 'GET', path: '/v1/portability/nexus' }, options)
  }

  /** PUT /v1/portability/nexus: replaces the registration list (`[]` clears it). */
  setNexus(regions: readonly NexusRegionInput[], options?: CallOptions): Promise<NexusRegistrations> {
    return this.#send({ method: 'PUT', path: '/v1/portability/nexus', body: jsonBody({ regions }) }, options)
  }

  /** GET /v1/portability/nexus/health: rolling 12-month totals per state against each threshold. */
  nexusHealth(params: NexusHealthParams = {}, options?: CallOptions): Promise<NexusHealthResponse> {
    return this.#send({ method: 'GET', path: '/v1/portability/nexus/health', query: { ...params } }, options)
  }

  /**
   * GET /v1/portability/returns: the account's stored transactions of a state and period (at most
   * 366 days) as a sales-tax return, one row per jurisdiction and rate, totals in exact cents.
   */
  salesTaxReturn(params: SalesTaxReturnParams, options?: CallOptions): Promise<SalesTaxReturnResponse> {
    return this.#send({ method: 'GET', path: '/v1/portability/returns', query: returnQuery(params) }, options)
  }

  /** GET /v1/portability/returns?format=csv: the same return as a CSV file's text. */
  salesTaxReturnCsv(params: SalesTaxReturnParams, options?: CallOptions): Promise<string> {
    return this.#send({ method: 'GET', path: '/v1/portability/returns', query: { ...returnQuery(params), format: 'csv' }, answer: 'text' }, options)
  }

  /** GET /v1/changes: one page of rate changes, past and upcoming; pass `next_cursor` as `cursor` for the next. */
  changes(params: RateChangesParams = {}, options?: CallOptions): Promise<RateChangesResponse> {
    const { states, impact, ...rest } = params
    const query = { ...rest, ...(states ? { states: states.join(',') } : {}), ...(impact === undefined ? {} : { impact: String(impact) }) }
    return this.#send({ method: 'GET', path: '/v1/changes', query }, options)
  }

  /**
   * Every page of GET /v1/changes for `params`, first to last: each call asks for the page after
   * the previous one's `next_cursor`. A failed call ends the iteration with its error.
   */
  async *changePages(params: Omit<RateChangesParams, 'cursor'> = {}, options?: CallOptions): AsyncGenerator<RateChangesResponse, void, undefined> {
    let cursor: string | undefined
    do {
      const page = await this.changes({ ...params, cursor }, options)
      yield page
      cursor = page.next_cursor ?? undefined
    } while (cursor)
  }

  /**
   * POST /v1/webhooks: registers an endpoint for the rate changes each newly served snapshot
   * announces. The answer holds the signing secret, shown only here. Retried only after a 429: a
   * timeout or 5xx may follow a stored registration, so list webhooks() before trying again.
   */
  createWebhook(input: WebhookInput, options?: CallOptions): Promise<CreatedWebhook> {
    return this.#send({ method: 'POST', path: '/v1/webhooks', body: jsonBody(input), idempotent: false }, options)
  }

  /** GET /v1/webhooks: the account's endpoints, oldest first, without their secrets. */
  webhooks(options?: CallOptions): Promise<WebhookList> {
    return this.#send({ method: 'GET', path: '/v1/webhooks' }, options)
  }

  /** PATCH /v1/webhooks/{id}: a new URL, a new secret (rotation), or `enabled: true` for a disabled endpoint. */
  updateWebhook(id: string, changes: WebhookChanges, options?: CallOptions): Promise<Webhook> {
    return this.#send({ method: 'PATCH', path: webhookPath(id), body: jsonBody(changes) }, options)
  }

  /** DELETE /v1/webhooks/{id}: removes the endpoint and its delivery records; nothing more is sent to it. */
  deleteWebhook(id: string, options?: CallOptions): Promise<void> {
    return this.#send({ method: 'DELETE', path: webhookPath(id) }, options)
  }

  /** GET /v1/webhooks/{id}/deliveries: the endpoint's deliveries, newest first (`limit` 1 to 500, default 50). */
  webhookDeliveries(id: string, params: WebhookDeliveriesParams = {}, options?: CallOptions): Promise<WebhookDeliveries> {
    return this.#send({ method: 'GET', path: `${webhookPath(id)}/deliveries`, query: { ...params } }, options)
  }

  /** GET /v1/webhooks/{id}/deliveries/{delivery_id}: one delivery with every attempt (when, HTTP status, duration, error), oldest first. */
  webhookDelivery(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDeliveryDetail> {
    return this.#send({ method: 'GET', path: `${webhookPath(id)}/deliveries/${encodeURIComponent(deliveryId)}` }, options)
  }

  /**
   * POST /v1/webhooks/{id}/pings: sends the endpoint a signed test event (`type: 'ping'`) at once,
   * once; resolves to the delivery (202), whose outcome webhookDelivery() shows.
   */
  pingWebhook(id: string, options?: CallOptions): Promise<WebhookDelivery> {
    return this.#send({ method: 'POST', path: `${webhookPath(id)}/pings` }, options)
  }

  /**
   * POST /v1/webhooks/{id}/deliveries/{delivery_id}/attempts: sends a delivery again, as a new
   * delivery (its own id, `redelivery_of` this one) of the same event, at once, once. Retried only
   * after a 429: a timeout or 5xx may follow a redelivery made, and a second would be sent too.
   */
  redeliverWebhookDelivery(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery> {
    return this.#send({ method: 'POST', path: `${webhookPath(id)}/deliveries/${encodeURIComponent(deliveryId)}/attempts`, idempotent: false }, options)
  }

  /** GET /v1/freshness (public): per-state data freshness. Suggested polling: hourly. */
  freshness(options?: CallOptions): Promise<FreshnessResponse> {
    return this.#send({ method: 'GET', path: '/v1/freshness' }, options)
  }

  /** GET /healthz (public): the service is up, the snapshot it serves, and the state of its store and snapshot; a degraded service answers 503 (a service error carrying the body). */
  health(options?: CallOptions): Promise<HealthResponse> {
    return this.#send({ method: 'GET', path: '/healthz' }, options)
  }

  /** GET /v1/account: the key's account, plan, quota and rate limit (not counted as a lookup). */
  account(options?: CallOptions): Promise<AccountResponse> {
    return this.#send({ method: 'GET', path: '/v1/account' }, options)
  }
}
