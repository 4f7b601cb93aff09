/**
 * GET /v1/auth/verify (the real client's auth.verify): tells whether the key is valid and whose it is.
 * Invalid, revoked or missing keys never reach the handler (401 from the guard).
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { principalOf } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import { verifyKeyRoute } from './auth.routes.ts';

const authRouter = newRouter().openapi(verifyKeyRoute, (c) => {
  const { keyId, kind, organization } = principalOf(c);
  return c.json(
    {
      valid: true as const,
      organization: { id: organization.id, name: organization.name, status: 'active' as const },
      key: { id: keyId, kind: kind === 'sandbox' ? ('sandbox' as const) : ('live' as const) },
    },
    200,
  );
});

export const authModule: SandboxModule = { name: 'auth', router: () => authRouter };
