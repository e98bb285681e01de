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

type Issuer = { private: string; cert: string }

/** A CA certificate named `commonName`, self-signed or signed by `issuer` (an intermediate). */
function caCertificate(commonName: string, issuer?: Issuer) {
  return generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...(issuer ? { ca: { key: issuer.private, cert: issuer.cert } } : {}),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  })
}

export async function issueReplicaCertificates(hosts: readonly string[], dir: string): Promise<ReplicaCertificates> {
  const ca = await caCertificate('taxatlas publisher replica test CA')
  const server = await serverCertificate(hosts, ca)
  const caFile = path.join(dir, 'replica-ca.pem')
  await writeFile(caFile, ca.cert)
  return { caFile, key: server.private, cert: server.cert }
}

/**
 * A chain whose server leaves out its intermediate, as remotesellersfiling.la.gov does
 * (publisher-evidence-remaining.md §3.2): a root CA, an intermediate it signs, and a server
 * certificate the intermediate signs, the server sending only its own. `caFile` holds the root alone
 * (the leaf cannot be verified: UNABLE_TO_VERIFY_LEAF_SIGNATURE); `completedFile` the root and the
 * intermediate, the remedy through NODE_EXTRA_CA_CERTS.
 */
export async function issueIncompleteChain(hosts: readonly string[], dir: string): Promise<ReplicaCertificates & { completedFile: string }> {
  const root = await caCertificate('taxatlas test root CA')
  const intermediate = await caCertificate('taxatlas test intermediate CA', root)
  const server = await serverCertificate(hosts, intermediate)
  const caFile = path.join(dir, 'root-ca.pem')
  const completedFile = path.join(dir, 'root-and-intermediate.pem')
  await writeFile(caFile, root.cert)
  await writeFile(completedFile, `${root.cert}\n${intermediate.cert}`)
  return { caFile, completedFile, key: server.private, cert: server.cert }
}

/** A server certificate for `hosts` signed by `issuer`. */
function serverCertificate(hosts: readonly string[], issuer: Issuer) {
  return generate([{ name: 'commonName', value: hosts[0] ?? 'publisher replica' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: issuer.private, cert: issuer.cert },
    extensions: [
      { name: 'subjectAltName', altNames: hosts.map((value) => ({ type: 2 as const, value })) },
      { name: 'extKeyUsage', serverAuth: true },
    ],
  })
}
