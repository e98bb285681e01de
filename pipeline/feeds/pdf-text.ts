// The text of a PDF with where each piece sits on its page, read by pdf.js (through unpdf, its
// serverless build). Where a table's rows are in the content stream is the producer's business: a
// reader puts them in order from their coordinates (a newsletter's columns, a form's bands), and
// checks the order it got by counts and known rows, since text out of order reads as other rows.
import { getDocumentProxy } from 'unpdf'

/** One run of text: its page (1-based), the left edge and baseline in PDF points (y grows upwards), its width. */
export type PdfTextItem = { page: number; x: number; y: number; width: number; text: string }

/** A line of text: the items sharing a baseline, left to right, joined with single spaces. */
export type PdfLine = { page: number; y: number; x: number; text: string }

type TextContentItem = { str?: string; transform?: number[]; width?: number }

export async function pdfTextItems(bytes: Uint8Array, fileName: string): Promise<PdfTextItem[]> {
  let document
  try {
    // pdf.js takes the buffer over: give it a copy, so the fetched bytes stay readable for hashing.
    document = await getDocumentProxy(new Uint8Array(bytes))
  } catch (error) {
    throw new Error(`${fileName}: not a PDF pdf.js can read (${(error as Error).message})`)
  }
  const items: PdfTextItem[] = []
  for (let page = 1; page <= document.numPages; page++) {
    const content = await (await document.getPage(page)).getTextContent()
    for (const item of content.items as TextContentItem[]) {
      if (!item.str || !item.transform || item.str.trim() === '') continue
      items.push({ page, x: item.transform[4]!, y: item.transform[5]!, width: item.width ?? 0, text: item.str })
    }
  }
  await document.destroy()
  return items
}

/** `items` grouped into lines by baseline (within `tolerance` points), top to bottom and page by page, each line's pieces left to right. */
export function linesOf(items: readonly PdfTextItem[], tolerance = 2): PdfLine[] {
  const sorted = [...items].sort((a, b) => a.page - b.page || b.y - a.y || a.x - b.x)
  const lines: { page: number; y: number; items: PdfTextItem[] }[] = []
  for (const item of sorted) {
    const line = lines.at(-1)
    if (line && line.page === item.page && Math.abs(line.y - item.y) <= tolerance) line.items.push(item)
    else lines.push({ page: item.page, y: item.y, items: [item] })
  }
  return lines.map(({ page, y, items: pieces }) => {
    const inOrder = pieces.sort((a, b) => a.x - b.x)
    return { page, y, x: inOrder[0]!.x, text: inOrder.map((piece) => piece.text).join(' ').replace(/\s+/g, ' ').trim() }
  })
}
