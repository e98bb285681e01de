// The server's JSON logger: one object per line, lines logged close together written together,
// and nothing lost when the process exits right after logging.
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { jsonLogger, sinkOf } from '../server/base/logger.ts'
import { loggedPath } from '../server/http/request-context.ts'
import { KEY_PREFIX, newApiKey } from '../server/store/api-keys.ts'
import { PROJECT_ROOT } from './support/shared.ts'

describe('jsonLogger', () => {
  it('writes the lines logged together in one write, each a JSON object with time, level, event and the fields', async () => {
    const writes: string[] = []
    const logger = jsonLogger(sinkOf((text) => void writes.push(text)))
    logger.info('first', { status: 200, path: '/v1/tax/ga', note: 'quote " and \\n newline' })
    logger.warn('second')
    logger.error('third', { reason: 'x' })
    expect(writes).toEqual([])
    await expect.poll(() => writes.length).toBe(1)
    const lines = writes[0].split('\n')
    expect(lines.pop()).toBe('')
    const entries = lines.map((line) => JSON.parse(line))
    expect(entries.map((e) => [e.level, e.event])).toEqual([['info', 'first'], ['warn', 'second'], ['error', 'third']])
    expect(entries[0]).toMatchObject({ status: 200, path: '/v1/tax/ga', note: 'quote " and \\n newline' })
    for (const entry of entries) expect(new Date(entry.time).toISOString()).toBe(entry.time)
  })

  it('writes at once when many lines are waiting, instead of holding them to the next flush', () => {
    const writes: string[] = []
    const logger = jsonLogger(sinkOf((text) => void writes.push(text)))
    const entry = { method: 'GET', route: '/v1/tax/:state', path: '/v1/tax/ga', status: 200, duration_ms: 0.5, support_reference: 'r', account_id: null }
    for (let i = 0; i < 255; i++) logger.request({ ...entry, support_reference: `r${i}` })
    expect(writes).toEqual([])
    logger.info('last')
    expect(writes).toHaveLength(1)
    const lines = writes[0].trimEnd().split('\n').map((line) => JSON.parse(line))
    expect(lines.map((line) => line.support_reference ?? line.event)).toEqual([...Array.from({ length: 255 }, (_, i) => `r${i}`), 'last'])
  })

  it('a process that exits straight after logging still writes every line', async () => {
    const script = "import { jsonLogger } from './server/base/logger.ts'; const l = jsonLogger(); for (let i = 0; i < 3; i++) l.info('line', { i }); process.exit(3)"
    const run = await execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PROJECT_ROOT, reject: false })
    expect(run.exitCode).toBe(3)
    expect(run.stdout.split('\n').map((line) => JSON.parse(line).i)).toEqual([0, 1, 2])
  })
})

describe('loggedPath', () => {
  it('drops the query string and cuts out an API key sent as a path segment', () => {
    const key = `${KEY_PREFIX}Ab3xQ9_-zz`
    expect(loggedPath(`/v1/tax/ga?zip=30303&api_key=${key}`)).toBe('/v1/tax/ga')
    expect(loggedPath(`/v1/tax/${key}?zip=1`)).toBe(`/v1/tax/${KEY_PREFIX}[redacted]`)
    expect(loggedPath(`/${key}/x/${key}`)).toBe(`/${KEY_PREFIX}[redacted]/x/${KEY_PREFIX}[redacted]`)
  })

  it('leaves no part of a real key in the path when it is split by a separator, escaped or a literal /, with or without its prefix', () => {
    for (let i = 0; i < 50; i++) {
      const { key } = newApiKey()
      const secret = key.slice(KEY_PREFIX.length)
      const half = secret.length >> 1
      const parts = [secret.slice(0, half), secret.slice(half)]
      // In three parts by literal slashes too.
      const thirds = [secret.slice(0, 14), secret.slice(14, 28), secret.slice(28)]
      for (const sent of [thirds.join('/'), `${KEY_PREFIX}${thirds.join('/')}`]) {
        const logged = loggedPath(`/v1/portability/orders/${sent}/more?zip=1`)
        for (const part of thirds) expect(logged, `${sent} → ${logged}`).not.toContain(part.slice(0, 10))
        expect(logged).toMatch(/^\/v1\/portability\/orders\/(tx_live_)?\[redacted\]\/more$/)
      }
      for (const separator of ['%2F', '/', '%20', '+', '%2B', '.', '%0A']) {
        for (const sent of [`${KEY_PREFIX}${parts.join(separator)}`, parts.join(separator)]) {
          const logged = loggedPath(`/v1/tax/${sent}?zip=1`)
          for (const part of parts) expect(logged, `${sent} → ${logged}`).not.toContain(part.slice(0, 12))
        }
      }
    }
    // Ordinary segments are logged as sent.
    for (const path of ['/v1/tax/ga', '/openapi.json', '/v1/portability/orders/order%20123-abc', '/taxjar/v2/transactions/orders/Order-2026-01-15-0001', '/v1/portability/orders/Order-2026-01/Line-3', '/taxjar/v2/transactions/refunds/R-2026-01-15-0001/A1']) expect(loggedPath(path)).toBe(path)
  })
})

describe('the access log line', () => {
  it('is the JSON object of its fields, as the generic line would write it', async () => {
    const writes: string[] = []
    const logger = jsonLogger(sinkOf((text) => void writes.push(text)))
    const entries = [
      { method: 'GET', route: '/v1/tax/:state', path: '/v1/tax/"ga"\\\n\u2028', status: 200, duration_ms: 0.42, support_reference: 'a3b1c2d4-1111-2222-3333-444455556666', account_id: 'acct_x' },
      { method: null, route: null, path: null, status: 400, duration_ms: 0, support_reference: 'r', account_id: null, reason: 'HPE_INVALID_METHOD' },
      { method: 'POST', route: null, path: '/x', status: 499, duration_ms: 12.5, support_reference: 'r2', account_id: null, aborted: true as const },
    ]
    for (const entry of entries) {
      logger.request(entry)
      logger.info('request', entry)
    }
    await expect.poll(() => writes.length).toBe(1)
    const lines = writes[0].trimEnd().split('\n').map((line) => JSON.parse(line))
    for (let i = 0; i < entries.length; i++) {
      const { time: fast, ...fastRest } = lines[2 * i]
      const { time: generic, ...genericRest } = lines[2 * i + 1]
      expect(fastRest).toEqual(genericRest)
      expect(fastRest).toEqual({ level: 'info', event: 'request', ...entries[i] })
      expect(Object.keys(fastRest)).toEqual(Object.keys(genericRest))
      expect(Date.parse(fast)).toBeLessThanOrEqual(Date.parse(generic))
    }
  })
})

describe('the access log duration', () => {
  it('reads as String(number) does for every hundredth, and rounds a longer one to hundredths', async () => {
    const writes: string[] = []
    const logger = jsonLogger(sinkOf((text) => void writes.push(text)))
    const durations = Array.from({ length: 4000 }, (_, i) => (i * 37) / 100)
    const entry = { method: 'GET', route: null, path: '/', status: 200, support_reference: 'r', account_id: null }
    for (const duration_ms of [...durations, 1.004, 2.3456, 0.004]) logger.request({ ...entry, duration_ms })
    await expect.poll(() => writes.join('').split('\n').length).toBe(durations.length + 4)
    const written = writes.join('').trimEnd().split('\n').map((line) => /"duration_ms":([^,]*),/.exec(line)![1])
    expect(written.slice(0, durations.length)).toEqual(durations.map(String))
    expect(written.slice(durations.length)).toEqual(['1', '2.35', '0'])
  })
})
