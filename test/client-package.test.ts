// The typed client as a package: `npm pack` in client/ (which builds it) gives a small tarball
// with no dependency and no server code; installed offline into an empty project, it works from
// plain node, as an ES module and as CommonJS, against a real server (port 0, a real snapshot, a
// real store), and its declarations type-check a consumer without pulling in anything else. The
// API types it ships are those the server's zod schemas give now.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apiTypesSource } from '../client/codegen/api-types-source.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { packClient, type PackedClient } from './support/client-package.ts'

const TSC = path.join(PROJECT_ROOT, 'node_modules/.bin/tsc')

let artifacts: { dir: string; id: string }
let server: TestServer
let key: string
let packed: PackedClient
let project: string

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  server = await startTestServer({ artifactsDir: artifacts.dir })
  key = (await server.createAccount('enterprise', 'package consumer')).api_key
  packed = await packClient()
  project = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-client-consumer-'))
  await writeFile(path.join(project, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true }, null, 2)}\n`)
  // Offline, with a cache of its own: nothing may come from a registry.
  await execa('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', path.join(project, '.npm-cache'), packed.tarball], { cwd: project })
})
afterAll(async () => {
  await server?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
  if (project) await rm(project, { recursive: true, force: true })
  await packed?.dispose()
})

describe('the tarball', () => {
  it('is under 100 KB and the size client/README.md gives, holds the built files only, and declares no dependency', async () => {
    expect(packed.size).toBeLessThan(100 * 1024)
    // The README's "about N kB" (npm's kB: 1,000 bytes) within 10% of the tarball made now.
    const stated = Number(/taxatlas-client-<version>\.tgz`, about\s+(\d+) kB/.exec(await readFile(path.join(PROJECT_ROOT, 'client/README.md'), 'utf8'))?.[1])
    expect(Math.abs(stated * 1000 - packed.size) / packed.size, `README says about ${stated} kB; the tarball is ${packed.size} bytes`).toBeLessThan(0.1)
    expect(packed.files).toContain('package.json')
    expect(packed.files).toContain('README.md')
    for (const file of ['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json']) expect(packed.files).toContain(file)
    expect(packed.files.filter((file) => !/^(package\.json|README\.md|dist\/(esm|cjs)\/[\w-]+\.(js|d\.ts|json))$/.test(file))).toEqual([])
    const manifest = JSON.parse(await readFile(path.join(project, 'node_modules/@taxatlas/client/package.json'), 'utf8'))
    expect(manifest.name).toBe('@taxatlas/client')
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/)
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) expect(manifest[field], field).toBeUndefined()
  })

  it('installs alone: nothing else lands in node_modules', async () => {
    const { stdout } = await execa('npm', ['ls', '--all', '--parseable'], { cwd: project })
    const installed = stdout.split('\n').filter(Boolean).map((line) => path.relative(project, line)).filter(Boolean)
    expect(installed).toEqual(['node_modules/@taxatlas/client'])
  })

  it('imports no server, pipeline or snapshot code, and no package', async () => {
    for (const file of packed.files.filter((name) => /\.(js|ts)$/.test(name))) {
      const text = await readFile(path.join(project, 'node_modules/@taxatlas/client', file), 'utf8')
      const specifiers = [...text.matchAll(/(?:from\s+|import\(|require\()\s*['"]([^'"]+)['"]/g)].map((match) => match[1])
      expect(specifiers.filter((specifier) => !specifier.startsWith('./')), file).toEqual([])
      expect(text, file).not.toMatch(/server\/|pipeline\/|snapshot-contract\//)
    }
  })

  it('ships the API types the server schemas give now (client/api-types.ts is not stale)', async () => {
    const shipped = await readFile(path.join(project, 'node_modules/@taxatlas/client/dist/esm/api-types.d.ts'), 'utf8')
    expect(await readFile(path.join(PROJECT_ROOT, 'client/api-types.ts'), 'utf8')).toBe(apiTypesSource())
    // Every generated type is in the declarations consumers get.
    for (const [, name] of apiTypesSource().matchAll(/^export type (\w+) =/gm)) expect(shipped).toContain(`export type ${name} =`)
  })
})

/** A script run by plain node in the consumer project; prints one JSON line. */
async function run(file: string, source: string): Promise<any> {
  await writeFile(path.join(project, file), source)
  const { stdout } = await execa('node', [file, server.url, key], { cwd: project, env: { NODE_OPTIONS: '' } })
  return JSON.parse(stdout)
}

const CALLS = `
  const [baseUrl, apiKey] = process.argv.slice(2)
  const client = new TaxatlasClient({ baseUrl, apiKey, maxRetries: 0 })
  const out = {
    health: await client.health(),
    freshness: await client.freshness(),
    lookup: await client.tax('ga', { zip: '30303' }),
    full: await client.tax('ga', { zip: '30303', mode: 'full' }),
    account: await client.account(),
  }
  try {
    await new TaxatlasClient({ baseUrl, apiKey: 'tx_live_not_a_key', maxRetries: 0 }).account()
  } catch (error) {
    out.refused = { isAuthenticationError: error instanceof AuthenticationError, isTaxatlasError: error instanceof TaxatlasError, status: error.status, code: error.code, message: error.message }
  }
  console.log(JSON.stringify(out))
`

async function raw(pathName: string) {
  const response = await fetch(`${server.url}${pathName}`, { headers: { 'X-API-Key': key } })
  expect(response.status, pathName).toBe(200)
  return response.json()
}

describe('from plain node', () => {
  const check = async (out: any) => {
    expect(out.health.status).toBe('ok')
    expect(out.health.snapshot_id).toBe(artifacts.id)
    expect(out.freshness).toEqual(await raw('/v1/freshness'))
    expect(out.lookup).toEqual(await raw('/v1/tax/ga?zip=30303'))
    expect(out.lookup.rate.combined_rate).toMatch(/^\d\.\d{5}$/)
    expect(out.full.rows.length).toBeGreaterThan(0)
    expect(out.account.tier).toBe('enterprise')
    expect(out.refused).toEqual({ isAuthenticationError: true, isTaxatlasError: true, status: 401, code: 'UNAUTHORIZED', message: 'Invalid X-API-Key.' })
  }

  it('as an ES module', async () => {
    await check(await run('consumer.mjs', `import { AuthenticationError, TaxatlasClient, TaxatlasError } from '@taxatlas/client'\n${CALLS}`))
  })

  it('as CommonJS', async () => {
    const source = `const { AuthenticationError, TaxatlasClient, TaxatlasError } = require('@taxatlas/client')\n;(async () => {\n${CALLS}\n})()`
    await check(await run('consumer.cjs', source))
  })
})

describe('the declarations', () => {
  const CONSUMER = `
const client = new TaxatlasClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'k' })
export async function rates(): Promise<string> {
  const simple = await client.tax('ga', { zip: '30303' })
  const full = await client.tax('ga', { location: 'Atlanta, GA', mode: 'full' })
  const candidate: number | undefined = full.ambiguous_zip5.candidates[0]?.weight
  const status: 'ok' | 'changed' | 'stale' | 'failed' | 'manual' | 'unknown' | 'anchor_regression' | 'static' | 'maintenance' = (await client.freshness()).states[0].status
  return \`\${simple.rate.combined_rate} \${candidate} \${status} \${simple.meta.confidence}\`
}
export const isAuth = (error: unknown): boolean => error instanceof AuthenticationError
`
  const tsconfig = (files: string[]) => ({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: [] },
    files,
  })

  async function typecheck(name: string, files: Record<string, string>) {
    const dir = path.join(project, name)
    await mkdir(dir, { recursive: true })
    for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text)
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(Object.keys(files))))
    const checked = await execa(TSC, ['-p', dir, '--listFilesOnly'], { reject: false })
    const result = await execa(TSC, ['-p', dir], { reject: false })
    return { ok: result.exitCode === 0, output: result.stdout + result.stderr, files: checked.stdout.split('\n').filter(Boolean) }
  }

  it('type-check an ES module and a CommonJS consumer with nothing but the package and the platform', async () => {
    const esm = await typecheck('typed-esm', { 'consumer.mts': `import { AuthenticationError, TaxatlasClient } from '@taxatlas/client'\n${CONSUMER}` })
    expect(esm.output).toBe('')
    expect(esm.ok).toBe(true)
    const cjs = await typecheck('typed-cjs', { 'consumer.cts': `import taxatlas = require('@taxatlas/client')\nconst { AuthenticationError, TaxatlasClient } = taxatlas\n${CONSUMER}` })
    expect(cjs.output).toBe('')
    expect(cjs.ok).toBe(true)
    for (const { files } of [esm, cjs]) {
      const outside = files.filter((file) => !file.startsWith(project) && !/node_modules\/typescript\/|node_modules\/@typescript\/|lib\.[\w.]+\.d\.ts$/.test(file))
      expect(outside).toEqual([])
      expect(files.some((file) => file.includes('node_modules/@taxatlas/client/dist/'))).toBe(true)
    }
  })

  it('refuse a call the API does not take', async () => {
    const wrong = await typecheck('typed-wrong', {
      'wrong.mts': `import { TaxatlasClient } from '@taxatlas/client'\nconst client = new TaxatlasClient({ baseUrl: 'http://x' })\nexport const both = client.tax('ga', { zip: '30303', lat: 1, lng: 2 })\nexport const rate: number = (await client.tax('ga', { zip: '30303' })).rate.combined_rate\n`,
    })
    expect(wrong.ok).toBe(false)
    expect(wrong.output).toMatch(/wrong\.mts\(3,/)
    expect(wrong.output).toMatch(/wrong\.mts\(4,.*not assignable to type 'number'/)
  })
})
