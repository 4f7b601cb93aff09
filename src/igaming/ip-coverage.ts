/**
 * VPN detection's and IP jurisdiction's outcomes as coverage classes, from their address tables: each
 * magic range, non-public addresses and any other public address, per check. The analysis notes which
 * one an address fell in (`ipRangeFact`), so a suite that only ever sent residential addresses is told
 * it never met a VPN exit node, a restricted country or an unavailable provider.
 */
import { exampleRequest } from '../platform/coverage/sources.ts';
import type { ClassSource } from '../platform/coverage/outcome-class.ts';
import { JURISDICTION_RANGES, RESTRICTED_JURISDICTIONS, VPN_RANGES, type IpRange } from './ip-ranges.ts';

export type IpCheck = 'vpn-detection' | 'ip-jurisdiction';

const OPERATIONS: Record<IpCheck, string> = {
  'vpn-detection': 'POST /v1/igaming/vpn-detection',
  'ip-jurisdiction': 'POST /v1/igaming/ip-jurisdiction',
};

/** Where an address fell besides a magic range. */
export const NON_PUBLIC = 'non-public';
export const ORDINARY = 'ordinary';

/** The fact the analysis notes for an address of `check` placed in a magic range or NON_PUBLIC / ORDINARY. */
export function ipRangeFact(check: IpCheck, placement: string | IpRange): string {
  return `ip-range:${check} ${typeof placement === 'string' ? placement : placement.cidr}`;
}

/** The first address of a range after its network address (`198.51.100.129` for `198.51.100.128/25`). */
export function addressIn(range: IpRange): string {
  const [network] = range.cidr.split('/') as [string];
  if (range.family === 'ipv6') return `${network.replace(/::$/, '')}::1`;
  const octets = network.split('.').map(Number);
  octets[3] = (octets[3] ?? 0) + 1;
  return octets.join('.');
}

interface Row {
  placement: string;
  address: string;
  verdict: string;
  label: string;
}

function rowsOf(check: IpCheck): Row[] {
  const magic =
    check === 'vpn-detection'
      ? VPN_RANGES.map((range) => ({ placement: range.cidr, address: addressIn(range), verdict: range.verdict, label: range.label }))
      : JURISDICTION_RANGES.map((range) => ({
          placement: range.cidr,
          address: addressIn(range),
          verdict: range.country === null ? 'UNAVAILABLE' : (RESTRICTED_JURISDICTIONS as readonly string[]).includes(range.country) ? 'HIT' : 'CLEAR',
          label: range.label,
        }));
  return [
    ...magic,
    { placement: NON_PUBLIC, address: '10.0.0.1', verdict: 'UNAVAILABLE', label: 'private, loopback, link-local or reserved address' },
    {
      placement: ORDINARY,
      address: '8.8.8.8',
      verdict: 'CLEAR',
      label: check === 'vpn-detection' ? 'any other public address (residential)' : 'any other public address (a permitted country)',
    },
  ];
}

export const ipRangeSource: ClassSource = {
  name: 'iGaming address ranges',
  classes: (context) =>
    (Object.keys(OPERATIONS) as IpCheck[]).flatMap((check) => {
      const name = OPERATIONS[check];
      const operation = context.operations.get(name);
      return rowsOf(check).map(({ placement, address, verdict, label }) => ({
        id: `ip-range ${name} ${placement}`,
        kind: 'ip-range' as const,
        operation: name,
        title: `${placement === NON_PUBLIC || placement === ORDINARY ? label : `${placement} (${label})`} -> ${verdict}`,
        trigger: {
          how: `ip_address ${address}${placement === NON_PUBLIC || placement === ORDINARY ? '' : ` (any address in ${placement})`}`,
          ...(operation ? { request: exampleRequest(context, operation, { body: { ip_address: address } }) } : {}),
        },
        recognizer: { by: 'fact' as const, fact: ipRangeFact(check, placement) },
      }));
    }),
};
