// The server as its own process, for what an in-process server cannot show: every byte it writes
// to stdout and stderr (to search for keys), its resident memory, a file-size limit set on it
// from outside (prlimit), and kill -9. Runs the bundle (`make soak`, after `make -s
// build/server/main.mjs`) or the sources through tsx (tests).
import { spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { readEndpointFile, type AdminEndpoint } from '../../server/admin/endpoint-file.ts'
import { PROJECT_ROOT } from './shared.ts'

export type ServerEntry = 'bundle' | 'source'

export type ServerProcess = {
  url: string
  pid: number
  /** everything written to stdout and stderr so far (access-log lines only with keepAccessLog) */
  output: () => string
  /** the JSON log lines so far */
  events: () => Record<string, unknown>[]
  /** resident memory now, MB (Linux /proc) */
  rssMb: () => number
  /** the admin listener, once the store is open */
  adminEndpoint: () => Promise<AdminEndpoint>
  admin: (method: string, pathName: string, body?: unknown) => Promise<Response>
  createAccount: (tier?: string, name?: string) => Promise<{ account_id: string; api_key: string; key_id: string }>
  /** a full garbage collection in the server (started with `fullGcOnSignal`); resolves with its memory usage then */
  fullGc: () => Promise<NodeJS.MemoryUsage>
  kill9: () => Promise<void>
  /** SIGTERM; resolves with the exit code */
  stop: () => Promise<number | null>
}

const ENTRIES: Record<ServerEntry, string[]> = {
  bundle: ['build/server/main.mjs'],
  source: ['--import', 'tsx', 'server/main.ts'],
}

/** A copy of the bundle elsewhere (its main.mjs), run as `entry: 'bundle'` runs build/server/main.mjs. */
export type BundleEntry = { bundle: string }

export async function startServerProcess(options: {
  artifactsDir: string
  storePath: string
  entry?: ServerEntry | BundleEntry
  /** node's own options before the entry (e.g. `--import` a module) */
  nodeArgs?: string[]
  env?: Record<string, string>
  /** wait for the store to open (the admin endpoint file of this pid); default true */
  waitForStore?: boolean
  /** preload test/soak/full-gc-on-signal.mjs (with --expose-gc), for fullGc() */
  fullGcOnSignal?: boolean
  /** keep every byte of output and every access-log line (default true); the soak only needs the rest */
  keepAccessLog?: boolean
  /** standard output appended to this file instead of a pipe (a disk that fills up); read back for output() and events() */
  stdoutFile?: string
}): Promise<ServerProcess> {
  const gcFlags = options.fullGcOnSignal ? ['--expose-gc', '--import', './test/soak/full-gc-on-signal.mjs'] : []
  const stdoutFd = options.stdoutFile === undefined ? null : openSync(options.stdoutFile, 'a')
  const entry = options.entry ?? 'source'
  const child = spawn(process.execPath, [...gcFlags, ...(options.nodeArgs ?? []), ...(typeof entry === 'string' ? ENTRIES[entry] : [entry.bundle])], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      TAXATLAS_ADMIN_PORT: '0',
      TAXATLAS_ARTIFACTS: options.artifactsDir,
      TAXATLAS_STORE: options.storePath,
      ...options.env,
    },
    stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
  })
  if (stdoutFd !== null) closeSync(stdoutFd)
  // A test or script that dies first must not leave the server behind.
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  void exited.then(() => process.off('exit', killOnExit))

  const keepAccessLog = options.keepAccessLog !== false
  let output = ''
  let partial = ''
  let fullGcs = 0
  let afterGc: NodeJS.MemoryUsage | null = null
  const events: Record<string, unknown>[] = []
  const readStdout = (text: string) => {
    partial += text
    const lines = partial.split('\n')
    partial = lines.pop()!
    for (const line of lines) {
      const accessLog = line.includes('"event":"request"')
      if (keepAccessLog || !accessLog) output += `${line}\n`
      if (!line.startsWith('{') || (accessLog && !keepAccessLog)) continue
      try {
        events.push(JSON.parse(line))
      } catch {
        // not a log line
      }
    }
  }
  let fileRead = 0
  const pull = () => {
    if (options.stdoutFile === undefined) return
    const bytes = readFileSync(options.stdoutFile)
    readStdout(bytes.subarray(fileRead).toString())
    fileRead = bytes.length
  }
  child.stdout?.on('data', (chunk: Buffer) => readStdout(chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString()
    output += text
    for (const match of text.matchAll(/full-gc-done (\{.*\})/g)) {
      afterGc = JSON.parse(match[1]) as NodeJS.MemoryUsage
      fullGcs++
    }
  })

  const deadline = Date.now() + 60_000
  const storeOpen = async () => options.waitForStore === false || (await readEndpointFile(options.storePath))?.pid === child.pid
  let listening: Record<string, unknown> | undefined
  while ((pull(), !(listening = events.find((e) => e.event === 'listening'))) || !(await storeOpen())) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }

  const adminEndpoint = async () => {
    const endpoint = await readEndpointFile(options.storePath)
    if (!endpoint || endpoint.pid !== child.pid) throw new Error('the server has not published its admin endpoint')
    return endpoint
  }
  const admin = async (method: string, pathName: string, body?: unknown) => {
    const endpoint = await adminEndpoint()
    return fetch(`${endpoint.url}${pathName}`, {
      method,
      headers: { 'x-admin-token': endpoint.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }
  return {
    url: String(listening.url),
    pid: child.pid!,
    output: () => (pull(), output),
    events: () => (pull(), events),
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024,
    adminEndpoint,
    admin,
    createAccount: async (tier = 'enterprise', name = `reliability ${tier}`) => {
      const response = await admin('POST', '/admin/accounts', { name, tier })
      if (response.status !== 201) throw new Error(`create account: ${response.status} ${await response.text()}`)
      return response.json()
    },
    fullGc: async () => {
      const done = fullGcs
      child.kill('SIGUSR2')
      while (fullGcs === done) {
        if (child.exitCode !== null) throw new Error('the server exited')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return afterGc!
    },
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}

export type KeyCall = (method: string, pathName: string, body?: unknown, contentType?: string) => Promise<{ status: number; headers: Headers; text: string; body: any }>

/** Requests to the server with an API key; a string body is sent as is, anything else as JSON. */
export function keyCaller(server: Pick<ServerProcess, 'url'>, key: string): KeyCall {
  return async (method, pathName, body, contentType = 'application/json') => {
    const response = await fetch(`${server.url}${pathName}`, {
      method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': contentType }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null }
  }
}
