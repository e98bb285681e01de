// TaxJar's transaction endpoints under /taxjar/v2, for integrations that keep their TaxJar client
// and point its apiUrl at `<base URL>/taxjar`: list, show, create, update and delete, for orders
// and refunds alike (TaxJar's /transactions/orders and /transactions/refunds). Writes land in the
// same store as /v1/portability/orders (source `taxjar`) and feed nexus health.
import type { IncomingMessage } from 'node:http'
import * as z from 'zod'
import type { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { HttpError } from '../base/errors.ts'
import { validationError } from '../http/validation.ts'
import { inputOfRecord, patched } from '../portability/input-of-record.ts'
import { recordOfBody, type NormalizeOptions } from '../portability/normalize-transaction.ts'
import { parseTransactionDate } from '../portability/transaction-date.ts'
import { TRANSACTION_FIELDS } from '../portability/transaction-input.ts'
import type { TransactionKind } from '../store/transaction-record.ts'
import { TAXJAR_ERRORS } from '../taxjar/taxjar-error.ts'
import { deletedTaxjarTransaction, TaxjarTransaction, taxjarTransaction } from '../taxjar/taxjar-order.ts'
import { TAXJAR_BASE, TAXJAR_TAGS } from '../taxjar/taxjar-paths.ts'
import { defineRoute, type Route } from '../dispatch/route.ts'

/** TaxJar's body for create and update: its own fields only; unknown keys are ignored. */
export const TaxjarTransactionInput = z.object(TRANSACTION_FIELDS).meta({ id: 'TaxjarTransactionInput' })

/** At most this many ids per list call (TaxJar documents no paging). */
export const TAXJAR_LIST_LIMIT = 10_000

const MATH_CHECK_VERSION = '2020-08-07'

const ProviderQuery = z.object({ provider: z.string().min(1).max(64).optional().describe('default "api"') })
const IdParam = z.object({ transaction_id: z.string().min(1).max(255) })

function transactionRoutes(kind: TransactionKind): Route[] {
  const plural = kind === 'order' ? 'orders' : 'refunds'
  const Title = kind === 'order' ? 'Order' : 'Refund'
  const base = `${TAXJAR_BASE}/transactions/${plural}`
  const One = z.object({ [kind]: TaxjarTransaction })
  const common = { tags: TAXJAR_TAGS, auth: 'key' as const, errorFormat: TAXJAR_ERRORS }
  const notFound = (id: string, provider: string) => new HttpError('NOT_FOUND', `No ${kind} with transaction_id ${id} for provider ${provider}.`)
  const providerOf = (value: string | undefined) => (value ?? 'api').trim().toLowerCase()
  const normalizeOptions = (req: IncomingMessage, rates: RateIndex): NormalizeOptions => ({
    kind,
    requireReference: kind === 'refund',
    checkLineTotals: req.headers['x-api-version'] === MATH_CHECK_VERSION,
    rates,
  })

  const list = defineRoute({
    ...common,
    method: 'GET',
    path: base,
    operationId: `taxjarList${Title}s`,
    summary: `TaxJar: list ${plural} (ids)`,
    description: `Ids of ${plural} of one provider, oldest first, at most ${TAXJAR_LIST_LIMIT}; filter by \`transaction_date\` or \`from_transaction_date\` + \`to_transaction_date\` (UTC dates).`,
    query: ProviderQuery.extend({
      transaction_date: z.string().optional(),
      from_transaction_date: z.string().optional(),
      to_transaction_date: z.string().optional(),
    }),
    responses: { 200: { description: 'Transaction ids.', schema: z.object({ [plural]: z.array(z.string()) }) } },
  }).handle(async ({ query, caller, store }) => {
    const dateOf = (field: 'transaction_date' | 'from_transaction_date' | 'to_transaction_date') => {
      const value = query[field]
      if (value === undefined) return undefined
      const parsed = parseTransactionDate(value)
      if (!parsed.ok) throw validationError([{ loc: ['query', field], msg: parsed.reason, type: 'value_error', input: value }])
      return parsed.value.date
    }
    const exact = dateOf('transaction_date')
    const { transactions } = store
    const ids = await transactions.listIds(caller.account.id, {
      kind,
      provider: providerOf(query.provider),
      from: exact ?? dateOf('from_transaction_date'),
      to: exact ?? dateOf('to_transaction_date'),
      limit: TAXJAR_LIST_LIMIT,
    })
    return { status: 200, body: { [plural]: ids } }
  })

  const show = defineRoute({
    ...common,
    method: 'GET',
    path: `${base}/:transaction_id`,
    operationId: `taxjarShow${Title}`,
    summary: `TaxJar: show an ${kind}`,
    params: IdParam,
    query: ProviderQuery,
    responses: { 200: { description: `The ${kind}.`, schema: One } },
  }).handle(async ({ params, query, caller, store }) => {
    const provider = providerOf(query.provider)
    const { transactions } = store
    const stored = await transactions.get(caller.account.id, { provider, transactionId: params.transaction_id, kind })
    if (!stored) throw notFound(params.transaction_id, provider)
    return { status: 200, body: { [kind]: taxjarTransaction(stored, caller.account.id) } }
  })

  const create = defineRoute({
    ...common,
    method: 'POST',
    path: base,
    operationId: `taxjarCreate${Title}`,
    summary: `TaxJar: create an ${kind}`,
    description: `422 when the transaction_id is already recorded for the provider (update it with PUT). Send \`x-api-version: ${MATH_CHECK_VERSION}\` to have line items plus shipping checked against amount.${kind === 'refund' ? ' transaction_reference_id (the order refunded) is required; amounts are stored negative.' : ''}`,
    body: TaxjarTransactionInput,
    responses: { 201: { description: `The ${kind} as recorded.`, schema: One } },
  }).handle(async ({ req, body, caller, store, snapshot, now }) => {
    const record = recordOfBody(body, normalizeOptions(req, snapshot.rates))
    const { transactions } = store
    const { result, stored } = await transactions.save(caller.account.id, record, 'taxjar', now, 'create')
    if (result === 'exists') {
      const { transactionId, provider } = record
      throw new HttpError('VALIDATION_ERROR', `Provider transaction ${transactionId} (provider ${provider}) is already recorded; use PUT ${base.replace('/taxjar', '')}/${transactionId} to update it.`)
    }
    return { status: 201, body: { [kind]: taxjarTransaction(stored!, caller.account.id) } }
  })

  const update = defineRoute({
    ...common,
    method: 'PUT',
    path: `${base}/:transaction_id`,
    operationId: `taxjarUpdate${Title}`,
    summary: `TaxJar: update an ${kind}`,
    description: 'Fields sent replace the recorded ones; fields left out keep their values. 404 for an unknown transaction_id.',
    params: IdParam,
    body: TaxjarTransactionInput,
    responses: { 200: { description: `The ${kind} as recorded now.`, schema: One } },
  }).handle(async ({ req, params, body, caller, store, snapshot, now }) => {
    const provider = providerOf(typeof body.provider === 'string' ? body.provider : undefined)
    const { transactions } = store
    const existing = await transactions.get(caller.account.id, { provider, transactionId: params.transaction_id, kind })
    if (!existing) throw notFound(params.transaction_id, provider)
    const record = recordOfBody(patched(inputOfRecord(existing), { ...body, transaction_id: params.transaction_id }), normalizeOptions(req, snapshot.rates))
    const { result, stored } = await transactions.save(caller.account.id, record, 'taxjar', now, 'update')
    if (result === 'missing') throw notFound(params.transaction_id, provider)
    return { status: 200, body: { [kind]: taxjarTransaction(stored!, caller.account.id) } }
  })

  const remove = defineRoute({
    ...common,
    method: 'DELETE',
    path: `${base}/:transaction_id`,
    operationId: `taxjarDelete${Title}`,
    summary: `TaxJar: delete an ${kind}`,
    description: 'Removes it from the store (and from nexus totals); the answer is the id with every value null, as TaxJar answers.',
    params: IdParam,
    query: ProviderQuery,
    responses: { 200: { description: `The deleted ${kind}, values null.`, schema: One } },
  }).handle(async ({ params, query, caller, store }) => {
    const key = { provider: providerOf(query.provider), transactionId: params.transaction_id, kind }
    const { transactions } = store
    if (!(await transactions.remove(caller.account.id, key))) throw notFound(key.transactionId, key.provider)
    return { status: 200, body: { [kind]: deletedTaxjarTransaction(key, caller.account.id) } }
  })

  return [list, show, create, update, remove]
}

export const taxjarOrderRoutes = transactionRoutes('order')
export const taxjarRefundRoutes = transactionRoutes('refund')
