// A resource limit set from outside on a running server process (prlimit), undone when the test
// ends, failed or not: a server shared by the tests of a file must not carry one test's limit (a
// file-size limit of 0 refusing every write) into the next.
import { readFileSync } from 'node:fs'
import { execa } from 'execa'
import { onTestFinished } from 'vitest'

/** prlimit's names of the limits, and their rows in /proc/<pid>/limits */
const LIMITS_ROWS = { fsize: 'Max file size', nofile: 'Max open files' }

export type ProcessLimit = {
  /** puts back the soft limit the process had; once, whoever calls it first (the test or its end) */
  lift: () => Promise<void>
}

/** Sets the soft limit of `resource` (prlimit's name: fsize, nofile) of process `pid` to `soft`. */
export async function limitProcess(pid: number, resource: keyof typeof LIMITS_ROWS, soft: number): Promise<ProcessLimit> {
  const before = softLimit(pid, resource)
  await execa('prlimit', ['--pid', String(pid), `--${resource}=${soft}:`])
  let lifting: Promise<void> | null = null
  const lift = () =>
    (lifting ??= execa('prlimit', ['--pid', String(pid), `--${resource}=${before}:`], { reject: false }).then((run) => {
      // A process that has exited took its limit with it.
      if (run.exitCode !== 0 && isAlive(pid)) throw new Error(`could not lift the ${resource} limit of process ${pid}: ${run.stderr}`)
    }))
  onTestFinished(lift)
  return { lift }
}

/** The soft limit as /proc/<pid>/limits shows it (a number, or `unlimited`, as prlimit takes it). */
function softLimit(pid: number, resource: keyof typeof LIMITS_ROWS): string {
  const row = readFileSync(`/proc/${pid}/limits`, 'utf8').split('\n').find((line) => line.startsWith(LIMITS_ROWS[resource]))
  const soft = row?.slice(LIMITS_ROWS[resource].length).trim().split(/\s+/)[0]
  if (!soft) throw new Error(`no ${LIMITS_ROWS[resource]} in /proc/${pid}/limits`)
  return soft
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
