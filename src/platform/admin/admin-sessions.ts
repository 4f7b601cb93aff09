/**
 * Signed console sessions (http/admin-guard.ts checks them on every admin route). The session key is random
 * per process (never derived from the seed, which is public), so a restart signs everyone out of the console.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashParts } from '../random/random.ts';

export type AdminRole = 'admin' | 'visitor';

export interface AdminSession {
  id: string;
  /** `admin` after a login with the admin token; `visitor` when the sandbox has no admin token. */
  role: AdminRole;
  csrfToken: string;
}

/** Issues and reads signed console sessions; one per platform. */
export class AdminSessions {
  private readonly key = randomBytes(32);

  /** A new session and its cookie value `<id>.<role>.<signature>`. */
  issue(role: AdminRole): { session: AdminSession; cookie: string } {
    const id = randomBytes(18).toString('base64url');
    return { session: this.session(id, role), cookie: `${id}.${role}.${this.sign(`session\n${id}\n${role}`)}` };
  }

  /** The session a cookie value stands for, or undefined when it is missing, malformed or not ours. */
  read(cookie: string | undefined): AdminSession | undefined {
    const [id, role, signature, ...rest] = (cookie ?? '').split('.');
    if (!id || !signature || rest.length > 0 || (role !== 'admin' && role !== 'visitor')) return undefined;
    return sameText(signature, this.sign(`session\n${id}\n${role}`)) ? this.session(id, role) : undefined;
  }

  private session(id: string, role: AdminRole): AdminSession {
    return { id, role, csrfToken: this.sign(`csrf\n${id}`) };
  }

  private sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(hashParts('admin', presented), hashParts('admin', expected));
}

/** Constant-time comparison of two strings (a signature, a CSRF token). */
export const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
