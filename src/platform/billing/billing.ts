/**
 * Token balances. Each organization starts with its fixture balance in every namespace; billable
 * operations spend from it. Only an operation whose spec error list has 402 refuses when the balance
 * is short (its route declares 402, see `apiRoute`); any other billable operation is served and spends
 * what is left, since the real service never answers it with a status its contract does not list.
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

/**
 * How the operation being served answers a short balance. Its route decides (`apiRoute`: 402 declared
 * or not); handlers pass `fundsPolicyOf(c)` (http/context.ts) down to the service that bills.
 */
export interface FundsPolicy {
  /** 402 when the balance is short; otherwise the operation is served and spends what is left. */
  refusesForFunds: boolean;
  /** Where "served anyway" is said (X-Sandbox-Explain). */
  explain(reason: string): void;
}

/** A service called outside a request (tests, the bench's prefill): a short balance refuses. */
export const REFUSES_FOR_FUNDS: FundsPolicy = { refusesForFunds: true, explain: () => undefined };

/**
 * Throws 402 unless the organization can pay `units` tokens, on operations that may refuse for funds.
 * Call before doing billable work.
 */
export function requireFunds(world: World, organization: OrganizationFixture, funds: FundsPolicy, units = 1): void {
  if (balanceOf(world, organization) >= units) return;
  if (!funds.refusesForFunds) {
    funds.explain(`billing: balance ${balanceOf(world, organization)} < ${units}, served anyway: this operation's spec lists no 402`);
    return;
  }
  throw new ApiError(402, INSUFFICIENT);
}

/** Spends `units` tokens (after the work succeeded), never below zero; refuses as `requireFunds` does. */
export function charge(world: World, organization: OrganizationFixture, funds: FundsPolicy, units = 1): number {
  requireFunds(world, organization, funds, units);
  const remaining = Math.max(0, balanceOf(world, organization) - units);
  setBalance(world, organization.id, remaining);
  return remaining;
}
