// The portability tables over the server's store, created on first use (the store file is shared
// with accounts and usage; these tables are only needed once a portability route is called).
import type { Database } from '../store/database.ts'
import { NexusRegistrations } from '../store/nexus-registrations.ts'
import { TransactionStore } from '../store/transactions.ts'

export type PortabilityStores = { transactions: TransactionStore; registrations: NexusRegistrations }

export async function portabilityStores(db: Database): Promise<PortabilityStores> {
  const [transactions, registrations] = await Promise.all([TransactionStore.of(db), NexusRegistrations.of(db)])
  return { transactions, registrations }
}
