// The admin command as operators run it (`npm run admin -- …`, a real child process): through
// the running server's loopback listener, a key it creates works on the very next request; with
// no server running it opens the store itself.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { endpointFilePath } from '../server/admin/endpoint-file.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { startTestServer, withKey, type TestServer } from './support/server-harness.ts'

let artifacts: { dir: string; id: string }
let storeDir: string
let server: TestServer | null = null

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  storeDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-server-store-'))
})
afterAll(async () => {
  await server?.close()
  await rm(storeDir, { recursive: true, force: true })
  await rm(artifacts.dir, { recursive: true, force: true })
})

const storePath = () => path.join(storeDir, 'taxatlas.duckdb')

/** `npm run admin -- …`; npm prints its banner on stdout too, so --json output is the last line. */
async function admin(...args: string[]) {
  const result = await execa('npm', ['run', 'admin', '--', ...args], {
    cwd: PROJECT_ROOT,
    env: { TAXATLAS_STORE: storePath() },
    reject: false,
  })
  const last = result.stdout.trim().split('\n').at(-1) ?? ''
  return { ...result, json: args.includes('--json') && result.exitCode === 0 ? JSON.parse(last) : null }
}

describe('admin command', () => {
  it('works without a running server by opening the store, and the server later accepts its key', async () => {
    const created = await admin('create-account', '--name', 'Offline Co', '--tier', 'starter', '--json')
    expect(created.exitCode, created.stderr).toBe(0)
    expect(created.json).toMatchObject({ account_id: expect.stringMatching(/^acct_/), api_key: expect.stringMatching(/^tx_live_/) })

    server = await startTestServer({ artifactsDir: artifacts.dir, storeDir })
    expect((await fetch(`${server.url}/v1/account`, withKey(created.json.api_key))).status).toBe(200)
  })

  it('goes through the running server: a created key is accepted on the next request', async () => {
    const mode = (await stat(endpointFilePath(storePath()))).mode & 0o777
    expect(mode).toBe(0o600)

    const created = await admin('create-account', '--name', 'Acme Inc', '--tier', 'trial', '--json')
    expect(created.exitCode, created.stderr).toBe(0)
    const { account_id, api_key } = created.json
    const response = await fetch(`${server!.url}/v1/account`, { headers: { Authorization: `Bearer ${api_key}` } })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ account_id, name: 'Acme Inc', tier: 'trial' })

    const second = await admin('create-key', '--account', account_id, '--json')
    expect(second.exitCode, second.stderr).toBe(0)
    expect((await fetch(`${server!.url}/v1/account`, withKey(second.json.api_key))).status).toBe(200)

    const listed = await admin('list-accounts', '--json')
    const entry = listed.json.accounts.find((a: { account_id: string }) => a.account_id === account_id)
    expect(entry.keys).toHaveLength(2)
    expect(listed.stdout).not.toContain(api_key)
    const firstKeyId = entry.keys.find((k: { key_prefix: string }) => api_key.startsWith(k.key_prefix)).key_id

    const revoked = await admin('revoke-key', '--key', firstKeyId, '--json')
    expect(revoked.exitCode, revoked.stderr).toBe(0)
    expect((await fetch(`${server!.url}/v1/account`, withKey(api_key))).status).toBe(401)
    expect((await fetch(`${server!.url}/v1/account`, withKey(second.json.api_key))).status).toBe(200)

    const usage = await admin('usage', '--account', account_id, '--json')
    expect(usage.json).toEqual({ usage: [] })
    const human = await admin('list-accounts')
    expect(human.stdout).toContain('Acme Inc')
  })

  it('reports bad input with a non-zero exit and no stack trace', async () => {
    const badTier = await admin('create-account', '--name', 'X', '--tier', 'gold')
    expect(badTier.exitCode).toBe(2)
    expect(badTier.stderr).toContain('--tier must be one of trial, starter, growth, enterprise')
    const unknown = await admin('create-key', '--account', 'acct_missing')
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stderr).toContain('404 NOT_FOUND: No account acct_missing.')
    expect(unknown.stderr).not.toMatch(/\bat .*:\d+:\d+/)
  })

  it('the admin listener refuses requests without its token', async () => {
    const endpoint = JSON.parse(await readFile(endpointFilePath(storePath()), 'utf8'))
    const none = await fetch(`${endpoint.url}/admin/accounts`)
    expect(none.status).toBe(401)
    const wrong = await fetch(`${endpoint.url}/admin/accounts`, { headers: { 'x-admin-token': 'x'.repeat(43) } })
    expect(wrong.status).toBe(403)
    expect((await wrong.json()).error.code).toBe('FORBIDDEN')
  })
})
