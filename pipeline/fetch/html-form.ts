// The form of an ASP.NET page, read by an HTML parser (htmlparser2): its hidden inputs (the
// __VIEWSTATE, __EVENTVALIDATION, … a postback sends back), its submit buttons, and its drop-downs,
// each with its name, options and the one selected.
import { Parser } from 'htmlparser2'

export type SelectOption = { value: string; text: string; selected: boolean }
export type FormSelect = { id: string | null; name: string | null; options: SelectOption[] }
export type SubmitButton = { name: string; value: string }
export type PageForm = { hidden: Record<string, string>; submits: SubmitButton[]; selects: FormSelect[] }

export function pageForm(html: string): PageForm {
  const hidden: Record<string, string> = {}
  const submits: SubmitButton[] = []
  const selects: FormSelect[] = []
  let select: FormSelect | null = null
  let option: SelectOption | null = null
  const closeOption = () => {
    if (select && option) select.options.push({ ...option, text: option.text.replace(/\s+/g, ' ').trim() })
    option = null
  }
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'input' && attributes.name) {
          const type = (attributes.type ?? 'text').toLowerCase()
          if (type === 'hidden') hidden[attributes.name] = attributes.value ?? ''
          else if (type === 'submit') submits.push({ name: attributes.name, value: attributes.value ?? '' })
        } else if (name === 'select') select = { id: attributes.id ?? null, name: attributes.name ?? null, options: [] }
        else if (name === 'option' && select) {
          closeOption()
          option = { value: attributes.value ?? '', text: '', selected: 'selected' in attributes }
        }
      },
      ontext(text) {
        if (option) option.text += text
      },
      onclosetag(name) {
        if (name === 'option') closeOption()
        else if (name === 'select' && select) {
          closeOption()
          selects.push(select)
          select = null
        }
      },
    },
    { decodeEntities: true },
  )
  parser.end(html)
  return { hidden, submits, selects }
}
