// The OpenAPI 3.1 description of a list of routes, generated from the same zod schemas and
// flags the router enforces: parameters, bodies, responses, and the error responses each route
// can produce (401/402/429/503 from its auth flags, 400/413/415/422 from what it validates).
import { ERROR_STATUS, ErrorBody, ValidationErrorBody } from '../base/errors.ts'
import type { Route } from '../dispatch/route.ts'
import { WEBHOOK_EVENT_TYPE, WebhookEvent } from '../webhooks/announcement.ts'
import { PING_EVENT_TYPE, WebhookPing } from '../webhooks/requested-delivery.ts'
import type * as z from 'zod'
import { SchemaComponents } from './json-schema.ts'

type Json = Record<string, unknown>

export const API_VERSION = '1.0.0'

const ERROR_RESPONSES: Record<string, { status: number; description: string }> = {
  MalformedRequest: { status: 400, description: 'MALFORMED_JSON: the body is not valid JSON.' },
  Unauthorized: { status: 401, description: 'UNAUTHORIZED: no API key, or one that matches no account (api.md "Authentication").' },
  PaymentRequired: { status: 402, description: 'QUOTA_EXCEEDED (lookup quota of the period used up) or TRIAL_EXPIRED. Not retried by clients.' },
  PayloadTooLarge: { status: 413, description: 'PAYLOAD_TOO_LARGE: the body exceeds the limit.' },
  UnsupportedMediaType: { status: 415, description: 'UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json.' },
  ValidationFailed: { status: 422, description: 'VALIDATION_ERROR: a parameter or body value is invalid; `detail` lists each one.' },
  RateLimited: { status: 429, description: 'RATE_LIMITED: the API key sent more requests than its tier allows; wait Retry-After seconds.' },
  InternalError: { status: 500, description: 'INTERNAL_ERROR: an unexpected failure; quote support_reference when reporting it.' },
  ServiceUnavailable: {
    status: 503,
    description: 'SERVICE_UNAVAILABLE: the account store could not be opened, so API keys cannot be checked; public routes still answer. Retry after Retry-After seconds.',
  },
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': 'requests the key may make at once (token bucket size)',
  'RateLimit-Remaining': 'requests left right now',
  'RateLimit-Reset': 'seconds until the bucket is full again',
}

export function openApiDocument(routes: Route[]): Json {
  const components = new SchemaComponents()
  const errorRef = components.convert(ErrorBody, 'output')
  const validationRef = components.convert(ValidationErrorBody, 'output')
  // Responses first: see SchemaComponents on input/output forms of one named schema.
  const responses = new Map(routes.map((route) => [route, operationResponses(route, components)]))
  const paths: Record<string, Record<string, Json>> = {}
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    const operation: Json = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.tags ? { tags: route.tags } : {}),
      security: route.auth === 'key' ? [{ ApiKeyHeader: [] }, { BearerAuth: [] }] : [],
    }
    const parameters = [...parametersOf(route.params, 'path', components), ...parametersOf(route.query, 'query', components)]
    if (parameters.length) operation.parameters = parameters
    if (route.body) {
      operation.requestBody = {
        required: !route.body.safeParse(undefined).success,
        content: { 'application/json': { schema: components.convert(route.body, 'input') } },
      }
    }
    operation.responses = responses.get(route)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = operation
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'taxatlas',
      version: API_VERSION,
      description: [
        'US sales-tax rates from official sources.',
        'Every error has the shape of the Error schema, with `support_reference` equal to the X-Request-Id header.',
        'Any path not listed answers 404 NOT_FOUND; a listed path with another method answers 405 METHOD_NOT_ALLOWED with an Allow header.',
        'Every GET operation also answers HEAD (the same status and headers, no body); OPTIONS answers 204 with Allow, or a CORS preflight.',
        'Pages on another origin may call the API when the server lists that origin (TAXATLAS_CORS_ORIGINS); others are refused with 403 CORS_NOT_ALLOWED.',
        `Error codes: ${Object.entries(ERROR_STATUS).map(([code, status]) => `${code} (${status})`).join(', ')}.`,
      ].join(' '),
    },
    paths,
    webhooks: webhooksOf(components),
    components: {
      schemas: components.schemas,
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, { status, description }]) => [
          name,
          {
            description,
            headers: {
              'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
              ...(status === 429 || status === 503 ? { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } } : {}),
            },
            content: { 'application/json': { schema: status === 422 ? validationRef : errorRef } },
          },
        ]),
      ),
      headers: {
        'X-Request-Id': { description: 'the request id; equals error.support_reference', schema: { type: 'string' } },
      },
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'the same API key as Authorization: Bearer <API_KEY>' },
      },
    },
  }
}

/** What taxatlas sends to the endpoints registered with POST /v1/webhooks. */
function webhooksOf(components: SchemaComponents): Json {
  const header = (name: string, description: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } })
  const event = (type: string, summary: string, schema: z.ZodType, answers: string) => ({
    post: {
      summary,
      parameters: [
        header(
          'Taxatlas-Signature',
          't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the endpoint\'s secret>; after a rotation, a second v1= keyed by the replaced secret while it still signs',
        ),
        header('Taxatlas-Delivery', 'the delivery id, the same on every attempt: drop a repeat'),
        header('Taxatlas-Event', type),
        header('Taxatlas-Attempt', 'the attempt number, from 1'),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: components.convert(schema, 'output') } } },
      responses: { '200': { description: answers } },
    },
  })
  return {
    [WEBHOOK_EVENT_TYPE]: event(
      WEBHOOK_EVENT_TYPE,
      "Rate changes first seen in a newly served snapshot, in the account's states",
      WebhookEvent,
      'Any 2xx delivers it; any other answer, or none within the timeout, is retried with a doubling wait.',
    ),
    [PING_EVENT_TYPE]: event(PING_EVENT_TYPE, 'A test event, sent on request (POST /v1/webhooks/{id}/pings)', WebhookPing, 'Any 2xx delivers it; it is sent once, never retried.'),
  }
}

const textContent = (types: Record<string, string> = {}): Json =>
  Object.fromEntries(Object.entries(types).map(([type, description]) => [type, { schema: { type: 'string', description } }]))

function operationResponses(route: Route, components: SchemaComponents): Json {
  const responses: Json = {}
  for (const [status, spec] of Object.entries(route.responses)) {
    const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } }
    const documented = { ...(route.auth === 'key' ? RATE_LIMIT_HEADERS : {}), ...spec.headers }
    for (const [name, description] of Object.entries(documented)) headers[name] = { description, schema: { type: 'string' } }
    responses[status] = {
      description: spec.description,
      headers,
      ...(spec.schema ? { content: { 'application/json': { schema: components.convert(spec.schema, 'output') }, ...textContent(spec.textTypes) } } : {}),
    }
  }
  // A route with its own error format documents each error inline, with that format's schema.
  const format = route.errorFormat
  const ref = (name: string) =>
    format
      ? { description: ERROR_RESPONSES[name].description, content: { 'application/json': { schema: components.convert(format.schema, 'output') } } }
      : { $ref: `#/components/responses/${name}` }
  // A status the route documents itself (a lookup's 503 GEOCODER_UNAVAILABLE) keeps its own entry; the common case is added to its description.
  const add = (status: number, name: string) => {
    const own = responses[status] as Json | undefined
    responses[status] = own ? { ...own, description: `${String(own.description)} Also ${ERROR_RESPONSES[name].description}` } : ref(name)
  }
  if (route.body) for (const [status, name] of [[400, 'MalformedRequest'], [413, 'PayloadTooLarge'], [415, 'UnsupportedMediaType']] as const) add(status, name)
  if (route.auth === 'key') for (const [status, name] of [[401, 'Unauthorized'], [429, 'RateLimited']] as const) add(status, name)
  if (route.auth === 'key' && (route.countsAsLookup || !route.servesExpiredTrial)) add(402, 'PaymentRequired')
  if (route.params || route.query || route.body) add(422, 'ValidationFailed')
  add(500, 'InternalError')
  if (route.auth === 'key') add(503, 'ServiceUnavailable')
  return responses
}

function parametersOf(schema: Route['query'], where: 'path' | 'query', components: SchemaComponents): Json[] {
  if (!schema) return []
  const object = components.resolve(components.convert(schema, 'input'))
  const properties = (object.properties ?? {}) as Record<string, Json>
  const required = new Set((object.required ?? []) as string[])
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }))
}
