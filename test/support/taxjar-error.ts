// The TaxjarError the official `taxjar` client raises for a call that must fail.
import Taxjar from 'taxjar'
import { expect } from 'vitest'

export async function taxjarError(promise: Promise<unknown>): Promise<InstanceType<typeof Taxjar.Error>> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(Taxjar.Error)
    return error as InstanceType<typeof Taxjar.Error>
  }
  throw new Error('expected a TaxjarError')
}
