// GET /openapi.json (public): the description of exactly the routes this app serves, generated
// on its first request and kept: building it takes ~80 ms, which start-up does not wait for.
// The routes are code, so a schema that cannot be described fails the tests, which ask for it.
import * as z from 'zod'
import { etagOf, matchesIfNoneMatch } from '../base/etag.ts'
import { JsonText } from '../http/respond.ts'
import { openApiDocument } from '../openapi/document.ts'
import { defineRoute, type Route } from '../dispatch/route.ts'

/** The route serving the document of `routes` plus itself. */
export function openApiRoute(routes: Route[]): Route {
  let document: { text: string; etag: string } | null = null
  const described = () => {
    if (document === null) {
      const text = JSON.stringify(openApiDocument([...routes, route]))
      document = { text, etag: etagOf(text) }
    }
    return document
  }
  const route: Route = defineRoute({
    method: 'GET',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This API described in OpenAPI 3.1',
    tags: ['service'],
    auth: 'public',
    responses: {
      200: { description: 'The OpenAPI document.', schema: z.record(z.string(), z.unknown()), headers: { ETag: 'changes with the API' } },
      304: { description: 'Not modified since the ETag sent in If-None-Match.' },
    },
  }).handle(({ req }) => {
    const { text, etag } = described()
    const headers = { ETag: etag, 'Cache-Control': 'no-cache' }
    if (matchesIfNoneMatch(req, etag)) return { status: 304, body: undefined, headers }
    return { status: 200, body: new JsonText(text), headers }
  })
  return route
}
