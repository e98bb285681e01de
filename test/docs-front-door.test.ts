// The README stays a front door and the documents describe the system as it is: no leftover merge
// markers, no narrative of past work sessions.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

const documents = execFileSync('git', ['ls-files', 'README.md', 'docs', 'client/README.md'], { encoding: 'utf8' }).split('\n').filter((f) => f.endsWith('.md'))

it('README.md is at most 250 lines and opens with the set-up commands', () => {
  const readme = readFileSync('README.md', 'utf8').split('\n')
  expect(readme.length).toBeLessThanOrEqual(250)
  expect(readme.slice(0, 40).join('\n')).toMatch(/npm install && make test/)
})

it('no document holds a merge-conflict marker or narrates a work session', () => {
  const found: string[] = []
  for (const file of documents) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^(<{7}|={7}|>{7})( |$)/.test(line) || /\b(this|last|previous|earlier) session\b/i.test(line)) found.push(`${file}:${i + 1}: ${line}`)
    })
  }
  expect(documents.length).toBeGreaterThan(5)
  expect(found).toEqual([])
})
