// `make bench` lines for the code tied to a dependency's internals, each against the plain way it
// stands in for (docs/decisions.md says why each is kept):
// - the schema precheck (server/http/schema-precheck.ts reads zod's `_zod` definitions) against
//   zod's own parse and against a validator ajv compiles from the JSON Schema /openapi.json
//   publishes, on request values the precheck takes: µs per validation;
// - the nextTick class pin (server/http/next-tick-class.ts holds an object shaped as Node's
//   internal nextTick entry) against no pin: server CPU per request of a bare node:http server
//   after full garbage collections, the two servers taking turns (ABBA) under the same load.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type * as z from 'zod'
import { precheckOf } from '../../server/http/schema-precheck.ts'
import { openApiDocument } from '../../server/openapi/document.ts'
import { OrderTaxInput } from '../../server/order-tax/order-tax-input.ts'
import { API_ROUTES } from '../../server/routes/index.ts'
import { TaxQuery } from '../../server/routes/tax.ts'
import { PROJECT_ROOT } from '../support/shared.ts'
import { ROUNDS, SECONDS, stop, takingTurns, toRun, type LoadRun, type Target } from './lookup-bench.ts'

export type InternalsLine = { line: string; figures: string }

export const INTERNALS_CONDITIONS =
  `validation lines: each way in ${ROUNDS} turns taken in rotation over ${SECONDS} s (BENCH_SECONDS), the median turn's µs per validation; ` +
  'nextTick line: each server warmed, then 4 full collections while idle, then the two in ABBA turns as the lookups are'

/** A checkout as TaxJar integrations post it, with `lines` line items. */
const checkout = (lines: number) => ({
  from_country: 'US',
  from_zip: '92093',
  from_state: 'CA',
  from_city: 'La Jolla',
  from_street: '9500 Gilman Drive',
  to_country: 'US',
  to_zip: '90002',
  to_state: 'CA',
  to_city: 'Los Angeles',
  to_street: '1335 E 103rd St',
  shipping: 1.5,
  line_items: Array.from({ length: lines }, (_, i) => ({ id: String(i + 1), quantity: 1 + (i % 3), product_tax_code: i % 2 ? '20010' : '', unit_price: '15.25', discount: 0 })),
})

type Json = Record<string, unknown>

/** Validators ajv compiles from the JSON Schema of /openapi.json: a route's body, or its query from its query parameters. */
function jsonSchemaValidators() {
  const document = openApiDocument(API_ROUTES) as { paths: Record<string, Record<string, Json>> }
  const ajv = new Ajv2020({ strict: false })
  // OpenAPI's keywords are not JSON Schema's: the document is added whole so its #/components refs resolve.
  ajv.addSchema(document, 'openapi')
  const pointer = (...parts: string[]) => `openapi#/${parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`
  return {
    body: (path: string) => ajv.compile({ $ref: pointer('paths', path, 'post', 'requestBody', 'content', 'application/json', 'schema') }),
    query(path: string) {
      const parameters = (document.paths[path]!.get!.parameters as { in: string; name: string; required?: boolean; schema: Json }[]).filter((p) => p.in === 'query')
      const properties = Object.fromEntries(parameters.map((p) => [p.name, p.schema]))
      return ajv.compile({ $id: `query:${path}`, type: 'object', properties, required: parameters.filter((p) => p.required).map((p) => p.name) })
    },
  }
}

/** µs per call of each way, the median of ROUNDS turns; the ways take turns, each turn about SECONDS / (ROUNDS × ways). */
function timeWays(ways: Record<string, () => unknown>): Record<string, number> {
  const names = Object.keys(ways)
  const turnMs = (SECONDS * 1000) / (ROUNDS * names.length)
  const turns: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (const name of names) for (let i = 0; i < 1_000; i++) ways[name]!()
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      const way = ways[name]!
      let calls = 0
      const started = performance.now()
      let elapsed = 0
      while (elapsed < turnMs) {
        for (let i = 0; i < 50; i++) way()
        calls += 50
        elapsed = performance.now() - started
      }
      turns[name]!.push((elapsed * 1000) / calls)
    }
  }
  return Object.fromEntries(names.map((name) => [name, turns[name]!.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!]))
}

const µs = (value: number) => value.toFixed(value < 10 ? 2 : 1)

function validationLine(what: string, schema: z.ZodType, value: unknown, compiled: (value: unknown) => boolean): InternalsLine {
  const precheck = precheckOf(schema)
  if (!precheck?.(value) || !compiled(value) || !schema.safeParse(value).success) throw new Error(`${what}: the value is not one all three ways take`)
  const times = timeWays({ precheck: () => precheck(value), zod: () => schema.safeParse(value), ajv: () => compiled(value) })
  return {
    line: `${what}: precheck / zod parse / ajv from /openapi.json`,
    figures: `${µs(times.precheck!)} / ${µs(times.zod!)} / ${µs(times.ajv!)} µs`,
  }
}

async function startNextTickServer(keep: boolean): Promise<Target> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/bench/next-tick-server.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, KEEP_NEXT_TICK_CLASS: keep ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  const [port] = (await once(child.stdout!, 'data')) as [Buffer]
  return { url: `http://127.0.0.1:${port.toString().trim()}`, child, headers: {} }
}

async function collectGarbage(child: ChildProcess): Promise<void> {
  for (let i = 0; i < 4; i++) {
    child.send('collect')
    await once(child, 'message')
  }
}

async function nextTickLine(): Promise<InternalsLine> {
  const kept = await startNextTickServer(true)
  try {
    const plain = await startNextTickServer(false)
    try {
      // Both served before the collections, as a server is; the turns' own warm-up comes after.
      for (const server of [kept, plain]) {
        await fetch(server.url).then((response) => response.arrayBuffer())
        await collectGarbage(server.child)
      }
      const { own, reference } = await takingTurns(kept, ['/'], plain)
      const [withPin, withoutPin] = [toRun('nextTick class kept', own, reference.requestsPerSecond), toRun('no pin', reference, reference.requestsPerSecond)]
      const cpu = (run: LoadRun) => (run.serverCpuMicros === null ? '-' : run.serverCpuMicros.toFixed(1))
      return {
        line: 'bare node:http after full collections: nextTick class kept / no pin',
        figures: `server CPU ${cpu(withPin)} / ${cpu(withoutPin)} µs per request, ${withPin.requestsPerSecond.toFixed(0)} / ${withoutPin.requestsPerSecond.toFixed(0)} req/s`,
      }
    } finally {
      await stop(plain.child)
    }
  } finally {
    await stop(kept.child)
  }
}

export async function internalsLines(): Promise<InternalsLine[]> {
  const ajv = jsonSchemaValidators()
  const orderBody = ajv.body('/taxjar/v2/taxes')
  const lookupQuery = ajv.query('/v1/tax/{state}')
  const valid = (validate: (value: unknown) => boolean) => (value: unknown) => validate(value) === true
  return [
    validationLine('taxForOrder body, 5 line items', OrderTaxInput, checkout(5), valid(orderBody)),
    validationLine('taxForOrder body, 100 line items', OrderTaxInput, checkout(100), valid(orderBody)),
    validationLine('ZIP lookup query', TaxQuery, { zip: '90002' }, valid(lookupQuery)),
    await nextTickLine(),
  ]
}

/** `TZ=UTC npx tsx test/bench/internals-bench.ts`: these lines alone (no snapshot needed). */
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  for (const line of await internalsLines()) process.stdout.write(`${line.line}: ${line.figures}\n`)
  process.stdout.write(`${INTERNALS_CONDITIONS}\n`)
}
