// TaxJar's /v2/customers under /taxjar/v2: list (ids), show, create, update and delete, stored in
// the store (store/customers.ts) per account. POST /v2/taxes applies a customer's exemption when
// an order names it by customer_id.
import * as z from 'zod'
import { HttpError } from '../base/errors.ts'
import { TAXJAR_ERRORS } from '../taxjar/taxjar-error.ts'
import { customerOfBody, TaxjarCustomer, TaxjarCustomerInput, taxjarCustomer } from '../taxjar/taxjar-customer.ts'
import { TAXJAR_BASE, TAXJAR_TAGS } from '../taxjar/taxjar-paths.ts'
import { defineRoute, type Route } from '../dispatch/route.ts'

/** At most this many ids per list call (TaxJar documents no paging). */
export const TAXJAR_CUSTOMER_LIST_LIMIT = 10_000

const base = `${TAXJAR_BASE}/customers`
const common = { tags: TAXJAR_TAGS, auth: 'key' as const, errorFormat: TAXJAR_ERRORS }
const One = z.object({ customer: TaxjarCustomer })
const IdParam = z.object({ customer_id: z.string().min(1).max(255) })
const notFound = (id: string) => new HttpError('NOT_FOUND', `No customer with customer_id ${id}.`)

const list = defineRoute({
  ...common,
  method: 'GET',
  path: base,
  operationId: 'taxjarListCustomers',
  summary: 'TaxJar: list customers (ids)',
  description: `Customer ids in id order, at most ${TAXJAR_CUSTOMER_LIST_LIMIT}.`,
  responses: { 200: { description: 'Customer ids.', schema: z.object({ customers: z.array(z.string()) }) } },
}).handle(async ({ caller, store }) => {
  const { customers } = store
  return { status: 200, body: { customers: await customers.listIds(caller.account.id, TAXJAR_CUSTOMER_LIST_LIMIT) } }
})

const show = defineRoute({
  ...common,
  method: 'GET',
  path: `${base}/:customer_id`,
  operationId: 'taxjarShowCustomer',
  summary: 'TaxJar: show a customer',
  params: IdParam,
  responses: { 200: { description: 'The customer.', schema: One } },
}).handle(async ({ params, caller, store }) => {
  const { customers } = store
  const record = await customers.get(caller.account.id, params.customer_id)
  if (!record) throw notFound(params.customer_id)
  return { status: 200, body: { customer: taxjarCustomer(record) } }
})

const create = defineRoute({
  ...common,
  method: 'POST',
  path: base,
  operationId: 'taxjarCreateCustomer',
  summary: 'TaxJar: create a customer',
  description: 'customer_id, exemption_type (wholesale, government, other or non_exempt) and name are required; exempt_regions lists the US states the exemption holds in (none: everywhere). 422 for a known customer_id (update it with PUT).',
  body: TaxjarCustomerInput,
  responses: { 201: { description: 'The customer as stored.', schema: One } },
}).handle(async ({ body, caller, store, now }) => {
  const record = customerOfBody(body, null)
  const { customers } = store
  if ((await customers.save(caller.account.id, record, now, 'create')) === 'exists') {
    throw new HttpError('VALIDATION_ERROR', `Customer ${record.customerId} already exists; use PUT /v2/customers/${record.customerId} to update it.`)
  }
  return { status: 201, body: { customer: taxjarCustomer(record) } }
})

const update = defineRoute({
  ...common,
  method: 'PUT',
  path: `${base}/:customer_id`,
  operationId: 'taxjarUpdateCustomer',
  summary: 'TaxJar: update a customer',
  description: 'Fields sent replace the stored ones; fields left out keep their values. 404 for an unknown customer_id.',
  params: IdParam,
  body: TaxjarCustomerInput,
  responses: { 200: { description: 'The customer as stored now.', schema: One } },
}).handle(async ({ params, body, caller, store, now }) => {
  const { customers } = store
  const existing = await customers.get(caller.account.id, params.customer_id)
  if (!existing) throw notFound(params.customer_id)
  if (body.customer_id !== undefined && String(body.customer_id).trim() !== params.customer_id) {
    throw new HttpError('VALIDATION_ERROR', `customer_id ${String(body.customer_id)} in the body is not the customer_id ${params.customer_id} of the path; a customer's id cannot change.`)
  }
  const record = customerOfBody(body, existing)
  if ((await customers.save(caller.account.id, record, now, 'update')) === 'missing') throw notFound(params.customer_id)
  return { status: 200, body: { customer: taxjarCustomer(record) } }
})

const remove = defineRoute({
  ...common,
  method: 'DELETE',
  path: `${base}/:customer_id`,
  operationId: 'taxjarDeleteCustomer',
  summary: 'TaxJar: delete a customer',
  description: 'Answers the customer as it was; orders naming it are taxed without an exemption from then on.',
  params: IdParam,
  responses: { 200: { description: 'The deleted customer.', schema: One } },
}).handle(async ({ params, caller, store }) => {
  const { customers } = store
  const removed = await customers.remove(caller.account.id, params.customer_id)
  if (!removed) throw notFound(params.customer_id)
  return { status: 200, body: { customer: taxjarCustomer(removed) } }
})

export const taxjarCustomerRoutes: Route[] = [list, show, create, update, remove]
