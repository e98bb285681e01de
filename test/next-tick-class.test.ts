// keepNextTickClass (server/http/next-tick-class.ts): after full garbage collections, V8's
// feedback for the object literal Node builds in every process.nextTick must still name one hidden
// class, or every entry (several per request) is built in V8's runtime. Checked in a child process
// that serves real HTTP requests to itself, collects garbage between two loads, and prints V8's
// own view of process.nextTick's feedback (%DebugPrint, with --allow-natives-syntax).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { open, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { keepNextTickClass } from '../server/http/next-tick-class.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const CHILD = `
import http from 'node:http'
import { keepNextTickClass } from './server/http/next-tick-class.ts'
if (process.env.KEEP === '1') keepNextTickClass()
const body = Buffer.from('{"ok":true}')
const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body))
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
const ask = () => new Promise((resolve, reject) =>
  http.get({ host: '127.0.0.1', port: server.address().port, path: '/', agent }, (res) => res.resume().on('end', resolve)).on('error', reject))
const load = async (requests) => { for (let i = 0; i < requests; i += 8) await Promise.all(Array.from({ length: 8 }, ask)) }
await load(10000)
// Collections from timers, between requests: as an idle moment of a server would run them.
for (let i = 0; i < 4; i++) await new Promise((resolve) => setTimeout(() => { globalThis.gc(); resolve() }, 50))
await load(10000)
;%DebugPrint(process.nextTick)
agent.destroy()
server.close()
`

/** The states of process.nextTick's DefineKeyedOwnPropertyInLiteral feedback slots, e.g. ['MONOMORPHIC', …]. */
async function literalFeedback(keep: boolean): Promise<string[]> {
  // V8 prints straight to file descriptor 1: here a file, because into a pipe, which Node makes
  // non-blocking, the end of what it prints can be dropped.
  const printed = path.join(await tempDir('next-tick-class'), 'debug-print.txt')
  const file = await open(printed, 'w')
  try {
    // Not execa: it hands a child's output over through a pipe even when asked for a file.
    const child = spawn(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, KEEP: keep ? '1' : '0' },
      stdio: ['ignore', file.fd, 'inherit'],
    })
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
  } finally {
    await file.close()
  }
  return [...(await readFile(printed, 'utf8')).matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1])
}

describe('keepNextTickClass', () => {
  it('finds the two symbols Node keys its nextTick entries with (a pin that holds nothing does nothing)', () => {
    expect(keepNextTickClass()).toBe(true)
  })

  it('keeps the feedback of every key of the nextTick entry literal on one class across full collections', async () => {
    const states = await literalFeedback(true)
    expect(states).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC'])
  }, 60_000)

  it('without it, the same load and collections leave that feedback megamorphic (what it is for)', async () => {
    const states = await literalFeedback(false)
    expect(states).toHaveLength(4)
    expect(states, 'V8 no longer loses this feedback: keepNextTickClass may have become unnecessary').toContain('MEGAMORPHIC')
  }, 60_000)
})
