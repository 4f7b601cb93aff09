/**
 * The applicant's hosted page under {verify_url} (mounted at /verify): GET renders it (no API key: the
 * link is the permission), POST /verify/<id>/outcome applies the button's outcome and answers 303 to the
 * session's redirect_url with session_id, status and reason, or a result page when it has none.
 *
 * The link must carry the session's page token (hostedPageGuard), and the buttons post only from the page's
 * own origin. The page trusts the stored session, not the link: the redirect target is the session's own
 * redirect_url (the link's redirect_url parameter is informational), and an `oid` that names another
 * organization answers 404. A non-default namespace rides along as `?namespace=` in every URL.
 */
import { Hono } from 'hono';
import { ApiError } from '../platform/errors/api-error.ts';
import { behaviourOn, explain, publicUrlsOf, type AppContext, type AppEnv } from '../platform/http/context.ts';
import { hostedPageGuard } from '../platform/http/hosted-pages.ts';
import { hostedPageUrl, type PageScope } from '../platform/secrets/page-tokens.ts';
import { problemPage, resultPage, sessionPage } from './hosted-page.view.ts';
import { isApplicantOutcome, redirectUrlFor } from './redirect-callback.ts';
import { displayStatus, isExpired } from './session.machine.ts';
import { findHostedSession, openHostedPage, submitApplicantOutcome } from './sessions.service.ts';
import type { StoredSession } from './sessions.store.ts';

/** Where the page's buttons post: {verify_url}/<id>/outcome?oid=<org>&token=<page token>[&namespace=<ns>]. */
export function hostedActionUrl(verifyUrl: string, stored: StoredSession, scope: PageScope): string {
  const url = `${verifyUrl.replace(/\/+$/, '')}/${encodeURIComponent(stored.id)}/outcome?oid=${encodeURIComponent(stored.record.organization_id)}`;
  return hostedPageUrl(url, stored.id, scope);
}

const notFound = (c: AppContext, id: string) =>
  c.html(
    problemPage(
      'Verification not found',
      `There is no verification session ${id} here. Check the link you were sent (a session of another sandbox namespace needs its namespace parameter).`,
    ),
    404,
  );

function applicantName(stored: StoredSession): string {
  return `${stored.user.first_name} ${stored.user.last_name}`;
}

export const hostedPageRouter = new Hono<AppEnv>()
  .get('/verify/:id', hostedPageGuard(), (c) => {
    const world = c.get('world');
    const id = c.req.param('id');
    const found = findHostedSession(world, id, c.req.query('oid'));
    if (found === undefined) return notFound(c, id);
    const stored = openHostedPage(world, found);
    const nowMs = world.clock.now();
    const expired = isExpired(stored.record, nowMs);
    const organization = c.get('platform').keyRing.organizations.get(stored.record.organization_id);
    if (expired) explain(c, `session ${id} expired at ${stored.record.expires_at as string}: buttons redirect with status expired, reason session_expired`);
    return c.html(
      sessionPage({
        sessionId: stored.id,
        applicantName: applicantName(stored),
        organizationName: organization?.name ?? stored.record.organization_id,
        displayStatus: displayStatus(stored.record, nowMs),
        kind: stored.record.type === 'session' ? 'verification' : 'credit check',
        open: stored.record.status === 'PENDING',
        expired,
        ...(stored.record.expires_at === undefined ? {} : { expiresAt: stored.record.expires_at }),
        actionUrl: hostedActionUrl(publicUrlsOf(c).verify, stored, world),
        ...(stored.record.redirect_url === undefined ? {} : { redirectUrl: stored.record.redirect_url }),
      }),
      200,
    );
  })
  .post('/verify/:id/outcome', hostedPageGuard(), async (c) => {
    const world = c.get('world');
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const outcome = form.outcome;
    if (typeof outcome !== 'string' || !isApplicantOutcome(outcome)) {
      return c.html(
        problemPage(
          'Unknown choice',
          'The form must send outcome = success, document_unreadable, face_mismatch, internal_error, user_cancelled or session_expired.',
        ),
        400,
      );
    }
    const stored = findHostedSession(world, id, c.req.query('oid'));
    if (stored === undefined) return notFound(c, id);
    let answer;
    try {
      answer = await submitApplicantOutcome(world, stored, outcome, behaviourOn(c, 'auto-decline'), c.get('platform').uploads);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        explain(c, error.message);
        return c.html(problemPage('This verification cannot change any more', error.message), 409);
      }
      throw error;
    }
    explain(c, answer.explanation);
    const { status, reason } = answer.redirect;
    const redirectUrl = answer.stored.record.redirect_url;
    if (redirectUrl !== undefined) return c.redirect(redirectUrlFor(redirectUrl, id, status, reason), 303);
    return c.html(
      resultPage({
        sessionId: id,
        applicantName: applicantName(answer.stored),
        status,
        ...(reason === undefined ? {} : { reason }),
        sessionStatus: displayStatus(answer.stored.record, world.clock.now()),
      }),
      200,
    );
  });
