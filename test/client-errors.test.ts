// The error classes of the client (spec 7) against a scripted fault server: one class per status
// family, each with status, code, support reference and parsed body; no retry for a 4xx other
// than 429, nor for a success whose body is not JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServiceError,
  TaxatlasError,
  ValidationError,
} from '../client/index.ts'
import { errorEnvelope, startFaultServer, type FaultServer } from './support/client-fault-server.ts'
import { recordingClient, rejection } from './support/client-recording.ts'

let fault: FaultServer
beforeAll(async () => {
  fault = await startFaultServer()
})
afterAll(() => fault?.close())

const CLASSES = [AuthenticationError, PaymentRequiredError, ForbiddenError, NotFoundError, RateLimitError, ValidationError, ServiceError]

describe('a 4xx other than 429 is thrown at once, as the class of its status', () => {
  const cases = [
    { status: 400, code: 'INVALID_INPUT', type: ValidationError },
    { status: 401, code: 'UNAUTHORIZED', type: AuthenticationError },
    { status: 402, code: 'QUOTA_EXCEEDED', type: PaymentRequiredError },
    { status: 402, code: 'TRIAL_EXPIRED', type: PaymentRequiredError },
    { status: 403, code: 'FORBIDDEN', type: ForbiddenError },
    { status: 404, code: 'NOT_FOUND', type: NotFoundError },
    { status: 422, code: 'VALIDATION_ERROR', type: ValidationError },
  ]
  for (const { status, code, type } of cases) {
    it(`${status} ${code} → ${type.name}`, async () => {
      const body = errorEnvelope(code, `${code} happened`)
      fault.script({ status, body }, { status: 200, body: {} })
      const { client, waits } = recordingClient(fault.url)
      const error = await rejection(client.account())
      expect(error).toBeInstanceOf(type)
      expect(error).toBeInstanceOf(TaxatlasError)
      expect(error).toBeInstanceOf(Error)
      expect(CLASSES.filter((c) => error instanceof c)).toEqual([type])
      expect(error).toMatchObject({ name: type.name, status, code, message: `${code} happened`, supportReference: `ref-${code.toLowerCase()}` })
      expect(error.body).toEqual(body)
      expect(fault.requests).toHaveLength(1)
      expect(waits).toEqual([])
    })
  }

  it('a 400 keeps the correction of strict mode in its body', async () => {
    const correction = { field: 'state', raw: 'CT', suggested: 'GA', rule_id: 'state_derived_from_zip', hint: 'fix the state or the ZIP' }
    fault.script({ status: 400, body: { error: { ...errorEnvelope('INVALID_INPUT', 'CT vs 30303').error, correction } } })
    const error = await rejection(recordingClient(fault.url).client.tax('ct', { zip: '30303', strict: true }))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.body.error.correction).toEqual(correction)
    expect(error.detail).toEqual([])
  })

  it('a 422 exposes its detail list', async () => {
    const detail = [{ loc: ['query', 'lat'], msg: 'Too big', type: 'too_big', input: '100' }]
    fault.script({ status: 422, body: { ...errorEnvelope('VALIDATION_ERROR', 'invalid'), detail } })
    const error = await rejection(recordingClient(fault.url).client.tax('ga', { lat: 100, lng: 0 }))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.detail).toEqual(detail)
  })

  it('a 422 in the bare {detail} form of spec 2.7 is a ValidationError coded from the status line', async () => {
    const detail = [{ loc: ['query', 'zip'], msg: 'required', type: 'missing' }]
    fault.script({ status: 422, body: { detail } })
    const error = await rejection(recordingClient(fault.url).client.portabilityRates({ address: '1 Main St' }))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ status: 422, code: 'UNPROCESSABLE_ENTITY', supportReference: 'req-1', detail })
  })

  it('another 4xx (405, 413, 415) is the base TaxatlasError, not retried', async () => {
    fault.script({ status: 415, body: errorEnvelope('UNSUPPORTED_MEDIA_TYPE', 'send JSON') })
    const { client, waits } = recordingClient(fault.url)
    const error = await rejection(client.createOrder({ transaction_id: 'x' }))
    expect(error.constructor).toBe(TaxatlasError)
    expect(error).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
    expect(fault.requests).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it('a 404 with a text body keeps the text and takes its code from the status line', async () => {
    fault.script({ status: 404, body: 'no such thing', headers: { 'Content-Type': 'text/plain' } })
    const error = await rejection(recordingClient(fault.url).client.health())
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ code: 'NOT_FOUND', body: 'no such thing', supportReference: 'req-1', message: 'HTTP 404 Not Found' })
  })
})

describe('a success whose body is not a JSON object', () => {
  for (const [label, body] of [
    ['malformed JSON', '{"status": "ok"'],
    ['an HTML page', '<html>ok</html>'],
    ['JSON null', 'null'],
    ['an empty body', ''],
  ] as const) {
    it(`${label}: ServiceError INVALID_RESPONSE, not retried`, async () => {
      fault.script({ status: 200, body, headers: { 'Content-Type': 'application/json' } }, { status: 200, body: {} })
      const { client, waits } = recordingClient(fault.url)
      const error = await rejection(client.health())
      expect(error).toBeInstanceOf(ServiceError)
      expect(error).toMatchObject({ status: 200, code: 'INVALID_RESPONSE', supportReference: 'req-1', body })
      expect(fault.requests).toHaveLength(1)
      expect(waits).toEqual([])
    })
  }
})

describe('unknown response fields', () => {
  it('are kept, at every depth', async () => {
    const body = {
      rate: { zip: '30303', combined_rate: '0.08900', county_code: '121' },
      meta: { confidence: 'high', warnings: [{ code: 'new_warning', message: 'm', extra: 1 }], new_block: { a: 1 } },
      added_later: true,
    }
    fault.script({ status: 200, body })
    const answer = await recordingClient(fault.url).client.tax('ga', { zip: '30303' })
    expect(answer).toEqual(body)
    expect(answer.added_later).toBe(true)
    expect(answer.rate.county_code).toBe('121')
  })
})
