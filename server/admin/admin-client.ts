// The admin command's two ways to the store: through the running server's loopback admin
// listener (the DuckDB file has one writer, the server), or — when no server is running, and
// always on PostgreSQL, which every node and the command share — by opening the store itself.
// On PostgreSQL the servers hear of what the command changed within moments (store-engine.ts:
// watch).
import { setTimeout as sleep } from 'node:timers/promises'
import type { z } from 'zod'
import { systemClock } from '../base/clock.ts'
import { HttpError } from '../base/errors.ts'
import type { Tiers } from '../base/tiers.ts'
import { StoreOpenError } from '../store/open-store-file.ts'
import { openStore } from '../store/store.ts'
import type { StoreLocation } from '../store/store-location.ts'
import { ADMIN_TOKEN_HEADER } from './admin-listener.ts'
import { readEndpointAt, type AdminEndpoint } from './endpoint-file.ts'
import * as ops from './operations.ts'

type Out<T extends z.ZodType> = z.infer<T>

export type AdminClient = {
  via: 'server' | 'store'
  createAccount(input: Out<typeof ops.CreateAccountInput>): Promise<Out<typeof ops.CreatedAccountBody>>
  createKey(input: Out<typeof ops.CreateKeyInput>): Promise<Out<typeof ops.IssuedKeyBody>>
  revokeKey(keyId: string): Promise<Out<typeof ops.RevokedKeyBody>>
  listAccounts(): Promise<Out<typeof ops.AccountListBody>>
  usage(query: Out<typeof ops.UsageQuery>): Promise<Out<typeof ops.UsageBody>>
  close(): Promise<void>
}

export class AdminError extends Error {}

/** What the admin command needs of the server's settings. */
export type AdminSettings = { store: StoreLocation; adminEndpointFile: string | null; tiers: Tiers }

/** How long to wait for a server that holds the store but has not published its endpoint yet. */
const STARTING_SERVER_WAIT_MS = 5_000

export async function connectAdmin(settings: AdminSettings): Promise<AdminClient> {
  const endpointFile = settings.adminEndpointFile
  if (settings.store.kind === 'postgres' || endpointFile === null) return storeClient(settings)
  const endpoint = await readEndpointAt(endpointFile)
  if (endpoint && (await answers(endpoint))) return serverClient(endpoint)
  try {
    return await storeClient(settings)
  } catch (error) {
    // A server opens the store after it starts listening and writes its endpoint file once the
    // store is open: a locked store without a live endpoint is most likely a server starting up.
    if (!(error instanceof StoreOpenError && error.problem === 'locked')) throw error
    const deadline = Date.now() + STARTING_SERVER_WAIT_MS
    while (Date.now() < deadline) {
      await sleep(100)
      const published = await readEndpointAt(endpointFile)
      if (published && (await answers(published))) return serverClient(published)
    }
    throw error
  }
}

async function answers(endpoint: AdminEndpoint): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint.url}/admin/ping`, {
      headers: { [ADMIN_TOKEN_HEADER]: endpoint.token },
      signal: AbortSignal.timeout(2_000),
    })
    return response.ok
  } catch {
    return false
  }
}

function serverClient(endpoint: AdminEndpoint): AdminClient {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${endpoint.url}${path}`, {
      method,
      headers: { [ADMIN_TOKEN_HEADER]: endpoint.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = await response.json().catch(() => null)
    if (!response.ok) {
      const error = json?.error
      const detail = json?.detail ? ` ${JSON.stringify(json.detail)}` : ''
      throw new AdminError(`${response.status} ${error?.code ?? ''}: ${error?.message ?? 'no message'}${detail}`)
    }
    return json
  }
  const query = (q: Record<string, string | undefined>) => {
    const params = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined))
    return params.size ? `?${params}` : ''
  }
  return {
    via: 'server',
    createAccount: (input) => call('POST', '/admin/accounts', input),
    createKey: (input) => call('POST', '/admin/keys', input),
    revokeKey: (keyId) => call('POST', `/admin/keys/${encodeURIComponent(keyId)}/revoke`),
    listAccounts: () => call('GET', '/admin/accounts'),
    usage: (q) => call('GET', `/admin/usage${query(q)}`),
    close: async () => {},
  }
}

async function storeClient(settings: AdminSettings): Promise<AdminClient> {
  // Never creating an empty DuckDB store where one was (store-marker.ts): the command only changes a store that exists.
  const store = await openStore(settings.store, { role: 'admin', poolSize: 2, init: false, now: systemClock() })
  const ctx = { accounts: store.accounts, usage: store.usage, tiers: settings.tiers, clock: systemClock }
  const wrap = async <T>(work: () => T | Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      throw error instanceof HttpError ? new AdminError(`${error.status} ${error.code}: ${error.message}`) : error
    }
  }
  return {
    via: 'store',
    createAccount: (input) => wrap(() => ops.createAccount(ctx, input)),
    createKey: (input) => wrap(() => ops.createKey(ctx, input)),
    revokeKey: (keyId) => wrap(() => ops.revokeKey(ctx, keyId)),
    listAccounts: () => wrap(() => ops.listAccounts(ctx)),
    usage: (q) => wrap(() => ops.usageReport(ctx, q)),
    close: () => store.engine.close(),
  }
}
