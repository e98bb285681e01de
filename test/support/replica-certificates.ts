// A certificate authority made for one test run, and a server certificate it signs for the
// publishers' real host names: a child process trusts the replica only through
// NODE_EXTRA_CA_CERTS, as a deployment behind a TLS-inspecting proxy trusts that proxy.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { generate } from 'selfsigned'

export type ReplicaCertificates = {
  /** PEM file of the CA, for NODE_EXTRA_CA_CERTS */
  caFile: string
  /** the server's key and certificate (valid for every host name given) */
  key: string
  cert: string
}

export async function issueReplicaCertificates(hosts: readonly string[], dir: string): Promise<ReplicaCertificates> {
  const ca = await generate([{ name: 'commonName', value: 'taxatlas publisher replica test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  })
  const server = await generate([{ name: 'commonName', value: hosts[0] ?? 'publisher replica' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'subjectAltName', altNames: hosts.map((value) => ({ type: 2 as const, value })) },
      { name: 'extKeyUsage', serverAuth: true },
    ],
  })
  const caFile = path.join(dir, 'replica-ca.pem')
  await writeFile(caFile, ca.cert)
  return { caFile, key: server.private, cert: server.cert }
}
