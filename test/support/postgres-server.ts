// A throwaway PostgreSQL server for tests and the bench: initdb into a temporary directory, then
// postgres on a free loopback port with its socket in that directory, stopped and removed
// afterwards. Debian's `postgresql` package provides the binaries (.ci/run installs it). As root
// the cluster runs as the `postgres` OS user (postgres refuses to run as root).
import { execFile, spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { chown, mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)

export type PostgresServer = {
  /** the superuser's URL of the `postgres` database */
  url: string
  port: number
  /** a new empty database on this server, by URL */
  createDatabase: (label?: string) => Promise<string>
  /** stops the server (fast shutdown: connections are cut) */
  stop: () => Promise<void>
  /** starts it again on the same port and data directory */
  start: () => Promise<void>
  /** stops the server and removes its directory */
  dispose: () => Promise<void>
}

/** The newest installed PostgreSQL's bin directory. */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))) : []
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql; .ci/run does it)')
  return path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin')
}

const asRoot = process.getuid?.() === 0

/** Runs a PostgreSQL binary, as the postgres OS user when we are root. */
async function pgTool(bin: string, tool: string, args: string[]): Promise<void> {
  const command = path.join(bin, tool)
  if (asRoot) await run('runuser', ['-u', 'postgres', '--', command, ...args])
  else await run(command, args)
}

export async function freePort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as net.AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

/**
 * `durable: false` (tests) turns fsync off: nothing here outlives the run, and a test that kills a
 * server node never kills PostgreSQL itself. The bench keeps PostgreSQL's defaults.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  const bin = postgresBin()
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-pg-'))
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const uid = Number(stdout.trim())
    await chown(dir, uid, uid)
  }
  const data = path.join(dir, 'data')
  await pgTool(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--locale=C'])
  const port = await freePort()
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ].join(' ')
  const start = () => pgTool(bin, 'pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', settings, '-w', '-t', '60', 'start'])
  const stop = () => pgTool(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop'])
  await start()
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  let running = true
  const server: PostgresServer = {
    url,
    port,
    createDatabase: (label) => createTestDatabase(url, label),
    stop: async () => {
      await stop()
      running = false
    },
    start: async () => {
      await start()
      running = true
    },
    dispose: async () => {
      if (running) await stop().catch(() => undefined)
      await rm(dir, { recursive: true, force: true })
    },
  }
  // A test run that dies first must not leave the cluster behind.
  const cleanUp = () => {
    if (running) spawn(asRoot ? 'runuser' : path.join(bin, 'pg_ctl'), asRoot ? ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'] : ['-D', data, '-m', 'immediate', 'stop'], { stdio: 'ignore', detached: true })
  }
  process.once('exit', cleanUp)
  return server
}

/** A new database on the run's shared PostgreSQL server (test/postgres-setup.ts), by URL. */
export async function createTestDatabase(serverUrl: string, label = 'test'): Promise<string> {
  const name = `${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE "${name}"`)
  } finally {
    await client.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}
