// The portability tables over the server's store, created on first use (the store file is shared
// with accounts and usage; these tables are only needed once a portability route is called).
import { CustomerStore } from '../store/customers.ts'
import type { Database } from '../store/database.ts'
import { NexusRegistrations } from '../store/nexus-registrations.ts'
import { TransactionStore } from '../store/transactions.ts'

export type PortabilityStores = { transactions: TransactionStore; registrations: NexusRegistrations; customers: CustomerStore }

const opened = new WeakMap<Database, Promise<PortabilityStores>>()

/** The stores over `db`, their tables created by the first call (a failed attempt is retried by the next). */
export function portabilityStores(db: Database): Promise<PortabilityStores> {
  let stores = opened.get(db)
  if (!stores) {
    stores = Promise.all([TransactionStore.of(db), NexusRegistrations.of(db), CustomerStore.of(db)]).then(([transactions, registrations, customers]) => ({
      transactions,
      registrations,
      customers,
    }))
    stores.catch(() => opened.delete(db))
    opened.set(db, stores)
  }
  return stores
}
