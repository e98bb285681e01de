// The store's latency for the metrics (base/metrics.ts): the same engine, each of its database
// operations timed under `area.operation` (transactions.save, usage.add, accounts.changesSince…).
import type { ServerMetrics } from '../base/metrics.ts'
import type { StoreEngine } from './store-engine.ts'

const TIMED = {
  accounts: ['changesSince', 'insertAccount', 'insertKey', 'revokeKey'],
  usage: ['all', 'add'],
  transactions: ['get', 'save', 'remove', 'listIds', 'stateGroups', 'returnRows'],
  registrations: ['read', 'replace'],
  customers: ['get', 'listIds', 'save', 'remove'],
  webhooks: ['insert', 'list', 'update', 'remove', 'active', 'lastAnnounced', 'announce', 'request', 'claimDue', 'nextDue', 'delivered', 'failed', 'deliveries', 'delivery'],
} as const

export function timedEngine(engine: StoreEngine, time: ServerMetrics['timeStore']): StoreEngine {
  const timed = <T extends object>(area: keyof typeof TIMED, target: T): T => {
    const names = new Set<PropertyKey>(TIMED[area])
    return new Proxy(target, {
      get(object, name) {
        const value = Reflect.get(object, name, object)
        if (typeof value !== 'function') return value
        if (!names.has(name)) return value.bind(object)
        return (...args: unknown[]) => time(`${area}.${String(name)}`, () => value.apply(object, args))
      },
    })
  }
  return {
    ...engine,
    accounts: timed('accounts', engine.accounts),
    usage: timed('usage', engine.usage),
    transactions: timed('transactions', engine.transactions),
    registrations: timed('registrations', engine.registrations),
    customers: timed('customers', engine.customers),
    webhooks: timed('webhooks', engine.webhooks),
  }
}
