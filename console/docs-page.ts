// The API reference (/docs): Swagger UI (swagger-ui-dist, loaded by the page before this module)
// rendering this server's live /openapi.json, authorized with the key this tab keeps (another
// console page took it). No validator badge: it would call another host.
import { byId } from './dom.ts'
import { problemView } from './problem-view.ts'
import { keptKey } from './session-key.ts'

type SwaggerUi = (options: Record<string, unknown>) => { preauthorizeApiKey(scheme: string, key: string): void }
const SwaggerUIBundle = (globalThis as { SwaggerUIBundle?: SwaggerUi }).SwaggerUIBundle
const status = byId('docs-status')

if (!SwaggerUIBundle) {
  status.replaceChildren(problemView(new Error('Swagger UI did not load.')))
} else {
  const ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    validatorUrl: null,
    deepLinking: true,
    tryItOutEnabled: false,
    onComplete: () => {
      const key = keptKey()
      if (key) ui.preauthorizeApiKey('ApiKeyHeader', key)
      status.replaceChildren(`The API as this server describes it now.${key ? ' "Try it out" sends the API key this tab keeps.' : ''}`)
    },
  })
}
