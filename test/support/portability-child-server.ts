// The server as a real child process (node server/main.ts, as `make serve` runs it), for what an
// in-process server cannot show: a `kill -9` in the middle of its life, and its own RSS.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { readEndpointFile } from '../../server/admin/endpoint-file.ts'
import { PROJECT_ROOT } from './shared.ts'

export type ChildServer = {
  url: string
  pid: number
  /** resident memory of the server process now, MB */
  rssMb: () => number
  createAccount: (tier?: string) => Promise<{ account_id: string; api_key: string }>
  /** SIGKILL (kill -9) and wait for the process to be gone */
  kill9: () => Promise<void>
  /** SIGTERM and wait for a clean exit */
  stop: () => Promise<number | null>
}

export async function startChildServer(env: { artifactsDir: string; storePath: string; extra?: Record<string, string> }): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      TAXATLAS_ADMIN_PORT: '0',
      TAXATLAS_SNAPSHOT_POLL_MS: '600000',
      TAXATLAS_ARTIFACTS: env.artifactsDir,
      TAXATLAS_STORE: env.storePath,
      ...env.extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const events: Record<string, unknown>[] = []
  let partial = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString()
    const lines = partial.split('\n')
    partial = lines.pop()!
    for (const line of lines) if (line.startsWith('{')) events.push(JSON.parse(line))
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

  const deadline = Date.now() + 60_000
  let listening: Record<string, unknown> | undefined
  // The store opens after listen; the admin endpoint file (this pid's, not a killed server's) says it is open.
  while (!(listening = events.find((e) => e.event === 'listening')) || (await readEndpointFile(env.storePath))?.pid !== child.pid) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not start: ${JSON.stringify(events)} ${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const endpoint = (await readEndpointFile(env.storePath))!
  return {
    url: String(listening.url),
    pid: child.pid!,
    rssMb: () => rssOf(child),
    createAccount: async (tier = 'enterprise') => {
      const response = await fetch(`${endpoint.url}/admin/accounts`, {
        method: 'POST',
        headers: { 'x-admin-token': endpoint.token, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `child ${tier}`, tier }),
      })
      if (response.status !== 201) throw new Error(`create account: ${response.status} ${await response.text()}`)
      return response.json()
    },
    kill9: async () => {
      child.kill('SIGKILL')
      await exited
    },
    stop: async () => {
      child.kill('SIGTERM')
      return exited
    },
  }
}

function rssOf(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024
}
