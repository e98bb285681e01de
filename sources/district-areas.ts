// Every state's district-area facts, by state code (states without district taxes bound by area have none).
import type { DistrictAreaTable } from './district-area.ts'
import mn from './mn-district-areas.ts'

const TABLES: ReadonlyMap<string, DistrictAreaTable> = new Map([mn].map((table) => [table.state, table]))

export const districtAreasOf = (state: string): DistrictAreaTable | undefined => TABLES.get(state)
