/**
 * Fixture organizations and their API keys (fixtures/organizations.json, extra files, env).
 * Keys are kept only as HMAC-SHA256 digests and compared in constant time, as the real service
 * validates keys with an HMAC scheme.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const KeyKindSchema = z.enum(['live', 'sandbox', 'revoked']);
export type KeyKind = z.infer<typeof KeyKindSchema>;

const ApiKeyFixtureSchema = z.object({
  id: z.string().min(1),
  key: z.string().min(8, 'an API key needs at least 8 characters'),
  kind: KeyKindSchema,
});

const AmlBotSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** 0 = real time; null or a negative number = an unusable interval (BOT_CADENCE_INVALID). */
  cadenceDays: z.number().nullable(),
});

const KnownSubjectSchema = z.object({
  id: z.string().min(1),
  name: z.string().nullable().default(null),
  country: z.string().length(2).nullable().default(null),
});

export const OrganizationFixtureSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'organization ids use letters, digits, _ . - (max 64)'),
  name: z.string().min(1),
  balance: z.number().int().min(0),
  keys: z.array(ApiKeyFixtureSchema).default([]),
  amlBots: z.array(AmlBotSchema).default([]),
  knownSubjects: z.array(KnownSubjectSchema).default([]),
});
export type OrganizationFixture = z.infer<typeof OrganizationFixtureSchema>;
export type AmlBot = z.infer<typeof AmlBotSchema>;

export const OrganizationsFileSchema = z.object({ organizations: z.array(OrganizationFixtureSchema) });

export interface Principal {
  keyId: string;
  kind: KeyKind;
  organization: OrganizationFixture;
}

/** Reads and validates an organizations file; errors name the file and the field. */
export function readOrganizationsFile(path: string): OrganizationFixture[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read organizations file ${path}: ${(error as Error).message}`);
  }
  // Read once, at start: zod's fast path would generate and compile a parser per object schema for one use.
  const parsed = OrganizationsFileSchema.safeParse(json, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Organizations file ${path} is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data.organizations;
}

/**
 * `IDV_SANDBOX_API_KEYS="sk_live_acme=org_acme:live,sk_test_acme=org_acme:sandbox"` adds keys to
 * organizations; an organization named there that does not exist is created with a balance of 1000.
 */
export function parseKeysEnv(value: string, organizations: OrganizationFixture[]): OrganizationFixture[] {
  const byId = new Map(organizations.map((org) => [org.id, { ...org, keys: [...org.keys] }]));
  for (const item of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([^=\s]+)=([A-Za-z0-9_.-]+):(live|sandbox|revoked)$/.exec(item);
    if (!match) throw new Error(`IDV_SANDBOX_API_KEYS entry "${item}" must look like "<key>=<organization id>:<live|sandbox|revoked>"`);
    const [, key, orgId, kind] = match as unknown as [string, string, string, KeyKind];
    let org = byId.get(orgId);
    if (!org) byId.set(orgId, (org = { id: orgId, name: orgId, balance: 1000, keys: [], amlBots: [], knownSubjects: [] }));
    org.keys.push(ApiKeyFixtureSchema.parse({ id: `key_env_${org.keys.length + 1}_${orgId}`, key, kind }));
  }
  return [...byId.values()];
}

export class KeyRing {
  private readonly entries: { digest: Buffer; keyId: string; kind: KeyKind; organization: OrganizationFixture }[] = [];
  /** Keys already presented and found, to their principal. */
  private readonly identified = new Map<string, Principal>();
  readonly organizations: ReadonlyMap<string, OrganizationFixture>;

  constructor(
    organizations: OrganizationFixture[],
    private readonly secret: string,
  ) {
    const byId = new Map<string, OrganizationFixture>();
    const keyIds = new Set<string>();
    for (const organization of organizations) {
      if (byId.has(organization.id)) throw new Error(`Organization ${organization.id} is defined twice`);
      byId.set(organization.id, organization);
      for (const key of organization.keys) {
        if (keyIds.has(key.id)) throw new Error(`API key id ${key.id} is defined twice`);
        keyIds.add(key.id);
        this.entries.push({ digest: this.digest(key.key), keyId: key.id, kind: key.kind, organization });
      }
    }
    this.organizations = byId;
  }

  /**
   * The principal for a presented key, or undefined. The first time a key is presented every stored digest
   * is compared, in constant time; a key found is remembered, so the HMAC runs once per key, not per request.
   * The ring never changes after start-up (a revoked key is a fixture kind), so nothing remembered goes
   * stale, and only keys of the ring are remembered: wrong keys cannot grow the cache.
   */
  identify(presented: string): Principal | undefined {
    const known = this.identified.get(presented);
    if (known) return known;
    const digest = this.digest(presented);
    let found: Principal | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, digest) && !found) {
        found = Object.freeze({ keyId: entry.keyId, kind: entry.kind, organization: entry.organization });
      }
    }
    if (found) this.identified.set(presented, found);
    return found;
  }

  /** The fixture keys, for the banner and the catalog (they are public sandbox values). */
  fixtureKeys(): { key: string; keyId: string; kind: KeyKind; organizationId: string; organizationName: string }[] {
    return [...this.organizations.values()].flatMap((org) =>
      org.keys.map((key) => ({ key: key.key, keyId: key.id, kind: key.kind, organizationId: org.id, organizationName: org.name })),
    );
  }

  private digest(key: string): Buffer {
    return createHmac('sha256', this.secret).update(key).digest();
  }
}
