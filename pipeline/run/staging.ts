// The staging database (build/staging.duckdb): every validated row of the latest run per state,
// kept for auditing and for the snapshot comparison the run makes before publishing.
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import pLimit from 'p-limit'
import type { FeedResult } from '../../snapshot-contract/model.ts'

// One connection serves the whole run; appenders on it must not interleave.
export type Staging = { connection: DuckDBConnection; exclusive: ReturnType<typeof pLimit>; close: () => void }

export async function openStaging(buildDir: string | null): Promise<Staging> {
  let file = ':memory:'
  if (buildDir) {
    await mkdir(buildDir, { recursive: true })
    file = path.join(buildDir, 'staging.duckdb')
  }
  const instance = await DuckDBInstance.create(file)
  const connection = await instance.connect()
  await connection.run(`CREATE TABLE IF NOT EXISTS staged_jurisdictions (
    run_id VARCHAR, state VARCHAR, level VARCHAR, code VARCHAR, name VARCHAR,
    rate INTEGER, date_from DATE, date_to DATE, source VARCHAR)`)
  await connection.run(`CREATE TABLE IF NOT EXISTS staged_candidates (
    run_id VARCHAR, state VARCHAR, zip VARCHAR, county_fips VARCHAR, place_fips VARCHAR,
    weight DOUBLE, stack VARCHAR)`)
  return {
    connection,
    exclusive: pLimit(1),
    close: () => {
      connection.closeSync()
      instance.closeSync()
    },
  }
}

export function stageState(staging: Staging, runId: string, state: string, result: FeedResult): Promise<void> {
  return staging.exclusive(() => appendState(staging.connection, runId, state, result))
}

async function appendState(connection: DuckDBConnection, runId: string, state: string, result: FeedResult): Promise<void> {
  await connection.run('DELETE FROM staged_jurisdictions WHERE state = $1', [state])
  await connection.run('DELETE FROM staged_candidates WHERE state = $1', [state])
  const jurisdictions = await connection.createAppender('staged_jurisdictions')
  for (const j of result.jurisdictions) {
    jurisdictions.appendVarchar(runId)
    jurisdictions.appendVarchar(state)
    jurisdictions.appendVarchar(j.level)
    jurisdictions.appendVarchar(j.code)
    jurisdictions.appendVarchar(j.name)
    jurisdictions.appendInteger(j.rate)
    appendDate(jurisdictions, j.from)
    appendDate(jurisdictions, j.to)
    jurisdictions.appendVarchar(j.source)
    jurisdictions.endRow()
  }
  jurisdictions.closeSync()
  const candidates = await connection.createAppender('staged_candidates')
  for (const c of result.candidates) {
    candidates.appendVarchar(runId)
    candidates.appendVarchar(state)
    candidates.appendVarchar(c.zip)
    if (c.countyFips) candidates.appendVarchar(c.countyFips)
    else candidates.appendNull()
    if (c.placeFips) candidates.appendVarchar(c.placeFips)
    else candidates.appendNull()
    candidates.appendDouble(c.weight)
    candidates.appendVarchar(c.stack.map((ref) => `${ref.level}:${ref.code}`).join(' '))
    candidates.endRow()
  }
  candidates.closeSync()
}

function appendDate(appender: { appendVarchar(v: string): void; appendNull(): void }, value: string | null) {
  // DuckDB casts the ISO text to DATE on append.
  if (value) appender.appendVarchar(value)
  else appender.appendNull()
}
