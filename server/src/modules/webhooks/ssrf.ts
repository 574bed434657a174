import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard: a webhook reaches only public addresses, checked on the addresses its host resolves to (not on the
 * name), and the connection is then made to the address checked (`pinned`), so a second lookup that answers
 * differently (DNS rebinding) is never asked. `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_TARGETS) lifts it for development
 * and tests, and allows plain http too.
 */

/** Ranges no webhook may reach: this host, private networks, link-local, shared, documentation-free special use. */
const REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`, 6to4 `2002:`), if any. */
export function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const groups = expandIpv6(lower);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0) && !(groups[5] === 0 && zeros(6, 7)))
    return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return null;
}

function expandIpv6(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - h.length - t.length).fill(0);
  const groups = [...h, ...fill, ...t];
  return groups.length === 8 ? groups : null;
}

/** Whether production refuses the address (a literal IPv4 or IPv6 address, as a resolver answers it). */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return REFUSED.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  if (v4 !== null && REFUSED.check(v4, 'ipv4')) return true;
  return REFUSED.check(address, 'ipv6');
}

export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

export interface Target {
  url: URL;
  /** The address the connection goes to: the one that was checked. */
  address: string;
  family: 4 | 6;
}

export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The target of a URL, or `TargetRefusedError` saying why not: not https (unless `allowPrivate`), a host that does
 * not resolve, or one that resolves to any refused address (all of them must be public, or a round-robin answer
 * could slip one in).
 */
export async function resolveTarget(
  raw: string,
  { allowPrivate, resolve = systemResolve }: { allowPrivate: boolean; resolve?: Resolve },
): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefusedError(`"${raw}" is not a URL; send an absolute https:// URL`);
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new TargetRefusedError(`A webhook URL must use https (got ${url.protocol.replace(':', '')})`);
  if (url.username || url.password)
    throw new TargetRefusedError('A webhook URL carries no credentials; verify deliveries by their signature');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  } catch {
    throw new TargetRefusedError(`The host ${host} does not resolve; check the URL's spelling and its DNS record`);
  }
  if (addresses.length === 0) throw new TargetRefusedError(`The host ${host} resolves to no address`);
  if (!allowPrivate) {
    const refused = addresses.find((a) => isRefusedAddress(a.address));
    if (refused)
      throw new TargetRefusedError(
        `The host ${host} resolves to ${refused.address}, a private, loopback or link-local address: webhooks reach public addresses only`,
      );
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
