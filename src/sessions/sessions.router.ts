import { type AppContext, behaviourOn, fundsPolicyOf, noteOutcome, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { valueFact } from '../platform/coverage/sources.ts';
import { SESSION_STATUS_COVERAGE } from './session-coverage.ts';
import { explained } from '../platform/http/explained.ts';
import { sendJson, sendJsonText } from '../platform/http/fast-paths.ts';
import { newRouter } from '../platform/http/routing.ts';
import { MAX_UPLOAD_BYTES } from '../platform/uploads/uploads.ts';
import {
  createSessionRoute,
  createSessionUploadsRoute,
  driveSessionOutcomeRoute,
  getSessionRoute,
  listSessionsRoute,
  updateSessionStatusRoute,
} from './sessions.routes.ts';
import {
  createSession,
  createSessionUploads,
  driveSessionOutcome,
  getSandboxSession,
  getSession,
  listSandboxSessions,
  listSessions,
  updateSessionStatus,
  type LinkContext,
} from './sessions.service.ts';
import type { SessionListResponse } from './sessions.schemas.ts';
import { sessionWorkflows } from './session-workflows.ts';

const linksOf = (c: AppContext): LinkContext => ({ urls: publicUrlsOf(c) });

export const sessionsRouter = newRouter()
  .openapi(createSessionRoute, async (c) => {
    const { organization } = principalOf(c);
    const input = c.req.valid('json');
    const workflows = input.workflowId === undefined ? undefined : await sessionWorkflows();
    return c.json(explained(c, createSession(c.get('world'), organization, input, linksOf(c), fundsPolicyOf(c), workflows)), 200);
  })
  .openapi(listSessionsRoute, (c) => {
    const { kind, organization } = principalOf(c);
    if (kind === 'sandbox') return c.json(explained(c, listSandboxSessions(organization.id)), 200);
    const text = explained(c, listSessions(c.get('world'), organization.id, c.req.valid('query'), c.get('platform').signingSecret));
    // The page is rendered by the service (its items kept per record): the bytes and headers of c.json.
    return sendJsonText<SessionListResponse, 200>(c, text, 200);
  })
  .openapi(getSessionRoute, (c) => {
    const { kind, organization } = principalOf(c);
    const { id } = c.req.valid('param');
    const answer = kind === 'sandbox' ? getSandboxSession(id, organization.id, publicUrlsOf(c)) : getSession(c.get('world'), organization.id, id, linksOf(c));
    const session = explained(c, answer);
    noteOutcome(c, valueFact(SESSION_STATUS_COVERAGE, session.session_record.status));
    return sendJson(c, session, 200);
  })
  .openapi(updateSessionStatusRoute, (c) => {
    const { organization } = principalOf(c);
    const record = explained(c, updateSessionStatus(c.get('world'), organization.id, c.req.valid('param').id, c.req.valid('json').new_status));
    return c.json({ session_record: record }, 200);
  })
  .openapi(createSessionUploadsRoute, (c) => {
    const { organization } = principalOf(c);
    const platform = c.get('platform');
    const world = c.get('world');
    const answer = createSessionUploads(world, organization.id, c.req.valid('param').id, c.req.valid('json'), (owner, file) => {
      // The PUT compares the bare media type, so parameters (";charset=...") are not part of the record.
      const contentType = file.contentType.split(';')[0]?.trim().toLowerCase() ?? file.contentType;
      return platform.uploads.presign(world, organization.id, { contentType, byteLength: MAX_UPLOAD_BYTES, owner, slot: file.slot }, publicUrlsOf(c).base);
    });
    return c.json(explained(c, answer), 200);
  })
  .openapi(driveSessionOutcomeRoute, async (c) => {
    const answer = await driveSessionOutcome(
      c.get('world'),
      c.req.valid('param').id,
      c.req.valid('json'),
      behaviourOn(c, 'auto-decline'),
      c.get('platform').uploads,
    );
    c.get('platform').coverage.recordFacts(c.get('world').namespace, answer.facts ?? [], c.get('requestId'));
    return c.json(explained(c, answer), 200);
  });
