// undici on first use: it is the largest dependency of the bundled server and only outgoing
// requests need it (webhook deliveries, the census geocoder), so the bundle keeps it in a chunk of
// its own that start-up never loads (docs/architecture.md "How the server starts").
import { onFirstUse } from './on-first-use.ts'

export type Undici = typeof import('undici')

export const loadUndici = onFirstUse<Undici>('undici', () => import('undici'), ['Agent', 'EnvHttpProxyAgent', 'request', 'fetch'])
