// Several real server processes on one PostgreSQL database, as a scaled-out deployment runs them:
// each node its own process (reliability-server-process.ts) with its own ports and admin
// endpoint file, all on the same TAXATLAS_STORE URL and artifacts directory.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startServerProcess, type ServerProcess } from './reliability-server-process.ts'

export type Cluster = {
  nodes: ServerProcess[]
  databaseUrl: string
  /** starts one more node on the same database */
  add: (env?: Record<string, string>) => Promise<ServerProcess>
  /** rows of a query on the database */
  sql: (text: string, params?: unknown[]) => Promise<Record<string, any>[]>
  dispose: () => Promise<void>
}

export async function startCluster(options: { count: number; artifactsDir: string; databaseUrl: string; env?: Record<string, string> }): Promise<Cluster> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-cluster-'))
  let started = 0
  const nodes: ServerProcess[] = []
  const add = async (env: Record<string, string> = {}) => {
    // Each node's admin endpoint file sits where a DuckDB store's would, so the process helper finds it.
    const storePath = path.join(dir, `node-${++started}.store`)
    const node = await startServerProcess({
      artifactsDir: options.artifactsDir,
      storePath,
      keepAccessLog: false,
      env: { TAXATLAS_STORE: options.databaseUrl, TAXATLAS_ADMIN_ENDPOINT_FILE: `${storePath}.admin.json`, ...options.env, ...env },
    })
    nodes.push(node)
    return node
  }
  // Started together, as a deployment's nodes come up: they race for the migrations.
  await Promise.all(Array.from({ length: options.count }, () => add()))
  // A pool, not one client: a test may restart PostgreSQL under it.
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 })
  pool.on('error', () => undefined)
  return {
    nodes,
    databaseUrl: options.databaseUrl,
    add,
    sql: async (text, params = []) => (await pool.query(text, params)).rows,
    dispose: async () => {
      await Promise.all(nodes.map((node) => node.kill9()))
      await pool.end()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A JSON request with an API key; the body parsed (null when empty). */
export async function callNode(node: ServerProcess, key: string, method: string, pathName: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${node.url}${pathName}`, {
    method,
    headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers }
}
