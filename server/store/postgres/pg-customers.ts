// Customers in PostgreSQL (the DuckDB twin is customers.ts), keyed by the primary key (account,
// customer id): a customer created on two nodes at once is stored once, the second create is told
// it exists.
import { customerOf, type CustomerStore } from '../customers.ts'
import type { PgDatabase } from './pg-database.ts'

const COLUMNS = 'customer_id, exemption_type, name, exempt_regions, country, state, zip, city, street'

export function pgCustomerStore(db: PgDatabase): CustomerStore {
  return {
    async get(accountId, customerId) {
      const rows = await db.rows(`SELECT ${COLUMNS} FROM customers WHERE account_id = $1 AND customer_id = $2`, [accountId, customerId])
      return rows.length ? customerOf(rows[0]) : null
    },
    async listIds(accountId, limit) {
      const rows = await db.rows('SELECT customer_id FROM customers WHERE account_id = $1 ORDER BY customer_id LIMIT $2', [accountId, limit])
      return rows.map((row) => String(row.customer_id))
    },
    async save(accountId, record, now, mode) {
      const stamp = new Date(now).toISOString()
      const values = [record.exemptionType, record.name, JSON.stringify(record.exemptRegions), record.country, record.state, record.zip, record.city, record.street]
      if (mode === 'create') {
        const inserted = await db.run(
          `INSERT INTO customers (account_id, ${COLUMNS}, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::timestamp, $11::timestamp)
           ON CONFLICT (account_id, customer_id) DO NOTHING`,
          [accountId, record.customerId, ...values, stamp],
        )
        return inserted ? 'created' : 'exists'
      }
      const updated = await db.run(
        `UPDATE customers SET exemption_type = $3, name = $4, exempt_regions = $5, country = $6, state = $7, zip = $8, city = $9, street = $10, updated_at = $11::timestamp
         WHERE account_id = $1 AND customer_id = $2`,
        [accountId, record.customerId, ...values, stamp],
      )
      return updated ? 'updated' : 'missing'
    },
    async remove(accountId, customerId) {
      const rows = await db.rows(`DELETE FROM customers WHERE account_id = $1 AND customer_id = $2 RETURNING ${COLUMNS}`, [accountId, customerId])
      return rows.length ? customerOf(rows[0]) : null
    },
  }
}
