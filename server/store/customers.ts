// Customers of every account (TaxJar's /v2/customers), keyed by (account, customer id); every
// statement is scoped to one account. Exempt regions are kept as a JSON list of 2-letter state
// codes (empty: exempt everywhere). Writes are single transactions, committed before a call
// resolves, as for transactions.ts. The DuckDB table is below; PostgreSQL's in
// postgres/pg-customers.ts.
import type { Database } from './database.ts'

const SCHEMA = `CREATE TABLE IF NOT EXISTS customers (
  account_id VARCHAR NOT NULL, customer_id VARCHAR NOT NULL, exemption_type VARCHAR NOT NULL,
  name VARCHAR NOT NULL, exempt_regions VARCHAR NOT NULL,
  country VARCHAR, state VARCHAR, zip VARCHAR, city VARCHAR, street VARCHAR,
  created_at TIMESTAMP NOT NULL, updated_at TIMESTAMP NOT NULL)`

export const CUSTOMER_EXEMPTION_TYPES = ['wholesale', 'government', 'other', 'non_exempt'] as const
export type CustomerExemptionType = (typeof CUSTOMER_EXEMPTION_TYPES)[number]

export type CustomerRecord = {
  customerId: string
  exemptionType: CustomerExemptionType
  name: string
  /** state codes the exemption holds in; empty: everywhere */
  exemptRegions: string[]
  country: string | null
  state: string | null
  zip: string | null
  city: string | null
  street: string | null
}

export type CustomerSaveMode = 'create' | 'update'
export type CustomerSaveResult = 'created' | 'updated' | 'exists' | 'missing'

const COLUMNS = 'customer_id, exemption_type, name, exempt_regions, country, state, zip, city, street'
const KEY_WHERE = 'account_id = ? AND customer_id = ?'

export type CustomerStore = {
  get(accountId: string, customerId: string): Promise<CustomerRecord | null>
  /** Customer ids of the account, in id order, at most `limit`. */
  listIds(accountId: string, limit: number): Promise<string[]>
  save(accountId: string, record: CustomerRecord, now: number, mode: CustomerSaveMode): Promise<CustomerSaveResult>
  remove(accountId: string, customerId: string): Promise<CustomerRecord | null>
}

export class DuckDBCustomerStore implements CustomerStore {
  private constructor(private readonly db: Database) {}

  static async of(db: Database): Promise<DuckDBCustomerStore> {
    await db.run(SCHEMA)
    return new DuckDBCustomerStore(db)
  }

  async get(accountId: string, customerId: string): Promise<CustomerRecord | null> {
    const rows = await this.db.rows(`SELECT ${COLUMNS} FROM customers WHERE ${KEY_WHERE}`, [accountId, customerId])
    return rows.length ? customerOf(rows[0]!) : null
  }

  async listIds(accountId: string, limit: number): Promise<string[]> {
    const rows = await this.db.rows('SELECT customer_id FROM customers WHERE account_id = ? ORDER BY customer_id LIMIT ?', [accountId, limit])
    return rows.map((row) => String(row.customer_id))
  }

  save(accountId: string, record: CustomerRecord, now: number, mode: CustomerSaveMode): Promise<CustomerSaveResult> {
    const stamp = new Date(now).toISOString()
    const values = [record.exemptionType, record.name, JSON.stringify(record.exemptRegions), record.country, record.state, record.zip, record.city, record.street]
    return this.db.transaction(async (tx) => {
      const known = (await tx.rows(`SELECT 1 FROM customers WHERE ${KEY_WHERE}`, [accountId, record.customerId])).length > 0
      if (mode === 'create') {
        if (known) return 'exists'
        await tx.run(`INSERT INTO customers (account_id, ${COLUMNS}, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP)`, [
          accountId,
          record.customerId,
          ...values,
          stamp,
          stamp,
        ])
        return 'created'
      }
      if (!known) return 'missing'
      await tx.run(
        `UPDATE customers SET exemption_type = ?, name = ?, exempt_regions = ?, country = ?, state = ?, zip = ?, city = ?, street = ?, updated_at = ?::TIMESTAMP WHERE ${KEY_WHERE}`,
        [...values, stamp, accountId, record.customerId],
      )
      return 'updated'
    })
  }

  remove(accountId: string, customerId: string): Promise<CustomerRecord | null> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.rows(`SELECT ${COLUMNS} FROM customers WHERE ${KEY_WHERE}`, [accountId, customerId])
      if (!rows.length) return null
      await tx.run(`DELETE FROM customers WHERE ${KEY_WHERE}`, [accountId, customerId])
      return customerOf(rows[0]!)
    })
  }
}

/** A customer from a row of either engine's `customers` table. */
export function customerOf(row: Record<string, unknown>): CustomerRecord {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value))
  return {
    customerId: String(row.customer_id),
    exemptionType: row.exemption_type as CustomerExemptionType,
    name: String(row.name),
    exemptRegions: JSON.parse(String(row.exempt_regions)) as string[],
    country: text(row.country),
    state: text(row.state),
    zip: text(row.zip),
    city: text(row.city),
    street: text(row.street),
  }
}
