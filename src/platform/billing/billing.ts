/**
 * Token balances. Each organization starts with its fixture balance in every namespace; billable
 * operations spend from it and answer 402 when it is empty.
 */
import { ApiError } from '../errors/api-error.ts';
import type { OrganizationFixture } from '../auth/organizations.ts';
import type { World } from '../namespaces/world.ts';

interface BalanceRecord {
  id: string;
  balance: number;
}

const INSUFFICIENT = 'Insufficient funds or subscription. Top up the organization token balance (sandbox: PUT /__sandbox/organizations/{id}/balance).';

export function balanceOf(world: World, organization: OrganizationFixture): number {
  return world.data.collection<BalanceRecord>('balances').get(organization.id)?.balance ?? organization.balance;
}

export function setBalance(world: World, organizationId: string, balance: number): void {
  world.data.collection<BalanceRecord>('balances').put({ id: organizationId, balance });
}

/** Throws 402 unless the organization can pay `units` tokens. Call before doing billable work. */
export function requireFunds(world: World, organization: OrganizationFixture, units = 1): void {
  if (balanceOf(world, organization) < units) throw new ApiError(402, INSUFFICIENT);
}

/** Spends `units` tokens (after the work succeeded). Throws 402 if the balance cannot cover it. */
export function charge(world: World, organization: OrganizationFixture, units = 1): number {
  requireFunds(world, organization, units);
  const remaining = balanceOf(world, organization) - units;
  setBalance(world, organization.id, remaining);
  return remaining;
}
