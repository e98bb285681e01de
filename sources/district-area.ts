// The contract of a district-area fact: a district tax whose area is a whole county or a list of
// counties by statute or county resolution, with its rate, first day and citation. A rate file's
// district code without a boundary file is bound to such an area only when its rate and first day
// match exactly one fact (pipeline/feeds/sst/district-areas.ts).
import * as z from 'zod'

export const DistrictArea = z.object({
  /** what the tax is, as its statute or resolution names it */
  tax: z.string().min(1),
  /** 5-decimal fraction, as the API prints rates: '0.00750' is 0.75% */
  rate: z.string().regex(/^0\.\d{5}$/),
  /** the first day the tax is in force */
  firstDay: z.iso.date(),
  /** county names as the state's geography names them ("Hennepin") */
  counties: z.array(z.string().min(1)).min(1),
  /** statute, resolution or publication each fact comes from */
  citation: z.string().min(1),
})
export type DistrictArea = z.infer<typeof DistrictArea>

export const DistrictAreaTable = z.object({
  state: z.string().regex(/^[A-Z]{2}$/),
  /** where the table was compiled from */
  source: z.string().min(1),
  areas: z.array(DistrictArea),
})
export type DistrictAreaTable = z.infer<typeof DistrictAreaTable>

export const defineDistrictAreas = (table: DistrictAreaTable): DistrictAreaTable => DistrictAreaTable.parse(table)
