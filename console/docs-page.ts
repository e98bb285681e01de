// The API reference (/docs): Swagger UI (swagger-ui-dist, loaded by the page before this module)
// rendering this server's live /openapi.json. No validator badge: it would call another host.
import { byId } from './dom.ts'
import { problemView } from './problem-view.ts'

type SwaggerUi = (options: Record<string, unknown>) => unknown
const SwaggerUIBundle = (globalThis as { SwaggerUIBundle?: SwaggerUi }).SwaggerUIBundle
const status = byId('docs-status')

if (!SwaggerUIBundle) {
  status.replaceChildren(problemView(new Error('Swagger UI did not load.')))
} else {
  SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    validatorUrl: null,
    deepLinking: true,
    tryItOutEnabled: false,
    onComplete: () => status.replaceChildren('The API as this server describes it now.'),
  })
}
