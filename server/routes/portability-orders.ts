// POST /v1/portability/orders: one order or refund, stored for the nexus tracker. Re-sending a
// transaction is an upsert keyed by (provider, transaction_id, kind): the same content answers
// 200 `unchanged` (a safe retry), different content replaces the stored one and answers 200
// `updated`, a new key answers 201 `created`.
// GET /v1/portability/orders/:transaction_id reads one back.
import * as z from 'zod'
import { HttpError } from '../base/errors.ts'
import { recordOfBody } from '../portability/normalize-transaction.ts'
import { OrderView, orderView } from '../portability/order-view.ts'
import { TransactionInput } from '../portability/transaction-input.ts'
import { defineRoute } from '../dispatch/route.ts'

const SavedOrder = z
  .object({
    result: z.enum(['created', 'updated', 'unchanged']).describe('created (201); updated or unchanged (200) for a known transaction'),
    order: OrderView,
  })
  .meta({ id: 'SavedOrder' })

export const createOrderRoute = defineRoute({
  method: 'POST',
  path: '/v1/portability/orders',
  operationId: 'createOrder',
  summary: 'Record an order or refund for nexus tracking',
  description: [
    'TaxJar order fields; money as decimal strings or numbers (at most 4 decimals, kept exactly).',
    'A refund is `kind: "refund"`, or a negative `amount` when `kind` is omitted; its amounts are stored negative.',
    'Re-sending the same (provider, transaction_id, kind) is an upsert: identical content answers 200 `unchanged`, different content replaces it (200 `updated`).',
    'A `to_zip` that is not used within `to_state` is refused (422) with the reason.',
  ].join(' '),
  tags: ['portability'],
  auth: 'key',
  body: TransactionInput,
  responses: {
    200: { description: 'A known transaction: replaced (`updated`) or identical (`unchanged`).', schema: SavedOrder },
    201: { description: 'Stored.', schema: SavedOrder },
  },
}).handle(async ({ body, caller, store, snapshot, now }) => {
  const record = recordOfBody(body, { rates: snapshot.rates })
  const { transactions } = store
  const { result, stored } = await transactions.save(caller.account.id, record, 'api', now, 'upsert')
  const order = orderView(stored!)
  return result === 'created' ? { status: 201, body: { result, order } } : { status: 200, body: { result: result as 'updated' | 'unchanged', order } }
})

export const showOrderRoute = defineRoute({
  method: 'GET',
  path: '/v1/portability/orders/:transaction_id',
  operationId: 'showOrder',
  summary: 'Read back a recorded order or refund',
  tags: ['portability'],
  auth: 'key',
  params: z.object({ transaction_id: z.string().min(1).max(255) }),
  query: z.object({
    provider: z.string().min(1).max(64).default('api'),
    kind: z.enum(['order', 'refund']).default('order'),
  }),
  responses: { 200: { description: 'The transaction as stored.', schema: z.object({ order: OrderView }) } },
}).handle(async ({ params, query, caller, store }) => {
  const { transactions } = store
  const key = { provider: query.provider.toLowerCase(), transactionId: params.transaction_id, kind: query.kind }
  const stored = await transactions.get(caller.account.id, key)
  if (!stored) throw new HttpError('NOT_FOUND', `No ${key.kind} ${key.transactionId} (provider ${key.provider}) is recorded for this account.`)
  return { status: 200, body: { order: orderView(stored) } }
})
