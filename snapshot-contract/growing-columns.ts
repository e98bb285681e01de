// Rows collected one at a time into typed columns that grow by doubling, so millions of boundary rows
// cost a few bytes each rather than an object each.
type ColumnType = Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor

export type ColumnSpec = Record<string, ColumnType>
export type ColumnsOf<Spec extends ColumnSpec> = { [K in keyof Spec]: InstanceType<Spec[K]> }

const FIRST_CAPACITY = 1024

export class GrowingColumns<Spec extends ColumnSpec> {
  readonly #spec: Spec
  readonly #names: (keyof Spec)[]
  #columns: ColumnsOf<Spec>
  #length = 0

  constructor(spec: Spec) {
    this.#spec = spec
    this.#names = Object.keys(spec)
    this.#columns = this.#allocate(FIRST_CAPACITY)
  }

  get length(): number {
    return this.#length
  }

  push(row: { [K in keyof Spec]: number }): void {
    if (this.#length === this.#columns[this.#names[0]!].length) this.#grow()
    const at = this.#length++
    for (const name of this.#names) this.#columns[name][at] = row[name]
  }

  /** The columns, trimmed to the rows pushed (views over the builder's buffers: push no more). */
  finish(): ColumnsOf<Spec> {
    const trimmed = {} as ColumnsOf<Spec>
    for (const name of this.#names) trimmed[name] = this.#columns[name].subarray(0, this.#length) as ColumnsOf<Spec>[keyof Spec]
    return trimmed
  }

  #allocate(capacity: number): ColumnsOf<Spec> {
    const columns = {} as ColumnsOf<Spec>
    for (const [name, Type] of Object.entries(this.#spec)) columns[name as keyof Spec] = new Type(capacity) as ColumnsOf<Spec>[keyof Spec]
    return columns
  }

  #grow(): void {
    const grown = this.#allocate(this.#columns[this.#names[0]!].length * 2)
    for (const name of this.#names) (grown[name] as Uint32Array).set(this.#columns[name] as Uint32Array)
    this.#columns = grown
  }
}
