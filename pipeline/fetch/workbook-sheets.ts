// A workbook's sheets (read-excel-file), read once every part of the .xlsx archive is known to
// inflate within the input limits: a workbook that is a ZIP bomb fails its state, not the run.
import readXlsxFile from 'read-excel-file/node'
import { assertArchiveWithinLimits } from './archive.ts'

export async function readWorkbookSheets(bytes: Buffer, fileName: string): ReturnType<typeof readXlsxFile> {
  assertArchiveWithinLimits(bytes, fileName)
  return readXlsxFile(bytes)
}
