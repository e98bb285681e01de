// One throwaway PostgreSQL server for the whole run (test/support/postgres-server.ts); tests on
// the PostgreSQL store each create their own database on it (createTestDatabase). A test that
// restarts PostgreSQL starts a server of its own instead.
import type { TestProject } from 'vitest/node'
import { startPostgres } from './support/postgres-server.ts'

export default async function setup(project: TestProject) {
  const server = await startPostgres()
  project.provide('postgresUrl', server.url)
  return () => server.dispose()
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string
  }
}
