// A field's tokens with the repairs applied so far, so each repair can report the value before and after it.
import { renderWithEdits, type Edit, type Token, type TokenizedText } from './tokens.ts'

export class EditedText {
  private readonly edits: Edit[] = []

  constructor(private readonly tokenized: TokenizedText) {}

  get tokens(): readonly Token[] {
    return this.tokenized.tokens
  }

  current(): string {
    return renderWithEdits(this.tokenized, this.edits)
  }

  apply(edits: readonly Edit[]): { before: string; after: string } {
    const before = this.current()
    this.edits.push(...edits)
    return { before, after: this.current() }
  }
}
