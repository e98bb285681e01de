// `..` in every spelling (plain, %2e, %2f, %5c, double-encoded, overlong UTF-8), encoded and raw
// NULs: what a path-traversal test puts after each prefix it tries.
export const TRAVERSAL_PAYLOADS = [
  '../../../../etc/passwd',
  '..%2f..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  '%2e%2e%2f%2e%2e%2fpackage.json',
  '..%5c..%5cpackage.json',
  '..\\..\\package.json',
  '%252e%252e%252fpackage.json',
  '%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  '....//....//etc/passwd',
  '.git/config',
  '%2e%2e/.git/config',
  'package.json%00.json',
  'passwd%00',
  '%00',
  '.%00./.%00./etc/passwd',
]
