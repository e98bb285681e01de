// A database on the run's shared PostgreSQL server migrated up to a given list of migrations, and a
// plain client on it for the statements a test runs (EXPLAIN, bulk INSERTs); clients are ended by
// `endMigratedClients` in the test file's afterAll.
import pg from 'pg'
import { inject } from 'vitest'
import { PgDatabase } from '../../server/store/postgres/pg-database.ts'
import { migrate, type MIGRATIONS } from '../../server/store/postgres/pg-migrations.ts'
import { createTestDatabase } from './postgres-server.ts'

const clients: pg.Client[] = []

export async function migratedClient(migrations: typeof MIGRATIONS, label: string): Promise<pg.Client> {
  const url = await createTestDatabase(inject('postgresUrl'), label.replace(/ /g, '_'))
  const db = PgDatabase.connect(url, { size: 1, name: `${label} test` })
  await migrate(db, migrations)
  await db.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  clients.push(client)
  return client
}

export async function endMigratedClients(): Promise<void> {
  for (const client of clients.splice(0)) await client.end()
}
