/**
 * The address tables behind VPN detection and IP jurisdiction. The documented magic ranges sit inside
 * the address blocks reserved for documentation (RFC 5737: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24;
 * RFC 3849: 2001:db8::/32), so they can never collide with a real user's address. Non-public addresses
 * (private, loopback, link-local, unique-local, CGNAT) cannot be looked up: UNAVAILABLE. Any other public
 * address is an ordinary residential connection: no VPN, and a country derived from a hash of the
 * address over the sandbox's permitted jurisdictions (so the same address always has the same country).
 *
 * LIMITATIONS:
 * - No real IP intelligence: outside the magic ranges, the VPN verdict is always CLEAR and the country
 *   is a stable stand-in, not where the address really is.
 */
import { BlockList, isIP } from 'node:net';
import { hashParts } from '../platform/random/random.ts';

export type IpFamily = 'ipv4' | 'ipv6';

export interface IpRange {
  cidr: string;
  family: IpFamily;
}

function blockListOf(ranges: readonly IpRange[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [network, prefix] = range.cidr.split('/') as [string, string];
    list.addSubnet(network, Number(prefix), range.family);
  }
  return list;
}

function inRange(range: IpRange, address: string, family: IpFamily): boolean {
  if (range.family !== family) return false;
  return blockListOf([range]).check(address, family);
}

/** 'ipv4' / 'ipv6', or undefined when the string is not an IP address. */
export function ipFamily(address: string): IpFamily | undefined {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : undefined;
}

/** Addresses no geolocation or VPN provider can say anything about. */
const NON_PUBLIC: readonly IpRange[] = [
  { cidr: '0.0.0.0/8', family: 'ipv4' },
  { cidr: '10.0.0.0/8', family: 'ipv4' },
  { cidr: '100.64.0.0/10', family: 'ipv4' },
  { cidr: '127.0.0.0/8', family: 'ipv4' },
  { cidr: '169.254.0.0/16', family: 'ipv4' },
  { cidr: '172.16.0.0/12', family: 'ipv4' },
  { cidr: '192.168.0.0/16', family: 'ipv4' },
  { cidr: '224.0.0.0/3', family: 'ipv4' },
  { cidr: '::/127', family: 'ipv6' },
  { cidr: 'fc00::/7', family: 'ipv6' },
  { cidr: 'fe80::/10', family: 'ipv6' },
  { cidr: 'ff00::/8', family: 'ipv6' },
];
const NON_PUBLIC_LIST = blockListOf(NON_PUBLIC);

export function isNonPublic(address: string, family: IpFamily): boolean {
  return NON_PUBLIC_LIST.check(address, family);
}

export type IpVerdict = 'HIT' | 'CLEAR' | 'UNAVAILABLE';

export interface VpnRange extends IpRange {
  verdict: IpVerdict;
  /** What the range simulates (catalog, explanations, evidence). */
  label: string;
  connection: 'vpn' | 'hosting' | 'residential' | 'unknown';
  provider?: string;
}

/** Magic ranges of VPN detection. */
export const VPN_RANGES: readonly VpnRange[] = [
  { cidr: '198.51.100.0/25', family: 'ipv4', verdict: 'HIT', label: 'commercial VPN exit node', connection: 'vpn', provider: 'Sandbox VPN' },
  { cidr: '198.51.100.128/25', family: 'ipv4', verdict: 'HIT', label: 'hosting provider (data centre)', connection: 'hosting', provider: 'Sandbox Cloud' },
  { cidr: '192.0.2.0/24', family: 'ipv4', verdict: 'UNAVAILABLE', label: 'VPN intelligence provider unavailable', connection: 'unknown' },
  { cidr: '203.0.113.0/24', family: 'ipv4', verdict: 'CLEAR', label: 'residential broadband', connection: 'residential' },
  { cidr: '2001:db8:bad::/48', family: 'ipv6', verdict: 'HIT', label: 'commercial VPN exit node', connection: 'vpn', provider: 'Sandbox VPN' },
  { cidr: '2001:db8:dead::/48', family: 'ipv6', verdict: 'UNAVAILABLE', label: 'VPN intelligence provider unavailable', connection: 'unknown' },
  { cidr: '2001:db8::/32', family: 'ipv6', verdict: 'CLEAR', label: 'residential broadband', connection: 'residential' },
];

export interface JurisdictionRange extends IpRange {
  /** ISO 3166-1 alpha-2, or null when the lookup is unavailable. */
  country: string | null;
  label: string;
}

/** Countries the sandbox operator is not licensed in: an address located there is a HIT. */
export const RESTRICTED_JURISDICTIONS = ['US', 'FR', 'AU'] as const;

/** Magic ranges of IP jurisdiction (first match wins, so the narrow ranges come first). */
export const JURISDICTION_RANGES: readonly JurisdictionRange[] = [
  { cidr: '198.51.100.0/26', family: 'ipv4', country: 'US', label: 'United States (restricted)' },
  { cidr: '198.51.100.64/26', family: 'ipv4', country: 'FR', label: 'France (restricted)' },
  { cidr: '192.0.2.0/24', family: 'ipv4', country: null, label: 'geolocation provider unavailable' },
  { cidr: '203.0.113.0/25', family: 'ipv4', country: 'GB', label: 'United Kingdom (permitted)' },
  { cidr: '203.0.113.128/25', family: 'ipv4', country: 'MT', label: 'Malta (permitted)' },
  { cidr: '2001:db8:1::/48', family: 'ipv6', country: 'GB', label: 'United Kingdom (permitted)' },
  { cidr: '2001:db8:2::/48', family: 'ipv6', country: 'US', label: 'United States (restricted)' },
  { cidr: '2001:db8:3::/48', family: 'ipv6', country: null, label: 'geolocation provider unavailable' },
];

/** Where any other public address is placed: permitted jurisdictions only. */
const ORDINARY_COUNTRIES = ['GB', 'IE', 'MT', 'DE', 'SE', 'ES', 'IT', 'CA', 'NZ', 'NL'] as const;

export function firstRange<R extends IpRange>(ranges: readonly R[], address: string, family: IpFamily): R | undefined {
  return ranges.find((range) => inRange(range, address, family));
}

/** A stable country for an ordinary public address. */
export function ordinaryCountry(address: string): string {
  const hash = hashParts('ip-country', address.toLowerCase());
  return ORDINARY_COUNTRIES[hash.readUInt32BE(0) % ORDINARY_COUNTRIES.length] as string;
}
