/**
 * The outbox: every message the real service would send (invitations, Parent Connect e-mails, one-time
 * codes) lands here, per namespace, instead of reaching a person. Areas call `sendMessage`; the control
 * plane lists and clears the messages, the console shows them. With `--smtp` an e-mail is also handed to
 * a real SMTP server (smtp-courier.ts); how that went is recorded on the message, never on the API answer.
 *
 * Messages are records of the namespace's store partition: durable like the rest of its data, gone with
 * a reset. At most MAX_OUTBOX_MESSAGES are kept per namespace; a new message past it drops the oldest.
 */
import type { World } from '../namespaces/world.ts';
import { keysetPaging, type Page } from '../paging/keyset-paging.ts';
import type { MessageChannel, MessageKind, OutboxMessage } from './outbox.schemas.ts';

export const MAX_OUTBOX_MESSAGES = 1000;

/** What a sender gives: the message as the recipient gets it. */
export interface MessageInput {
  channel: MessageChannel;
  /** E-mail address or E.164 phone number. */
  to: string;
  /** E-mails only. */
  subject?: string;
  text: string;
  /** The page the message opens, built with hostedPageUrl (token and namespace included). */
  link?: string;
  kind: MessageKind;
  /** The session or request the message is about. */
  sessionId?: string;
}

interface OutboxCounter {
  id: 'outbox-counter';
  next: number;
}

const outboxMessages = (world: World) => world.data.collection<OutboxMessage>('outbox');

/**
 * Its own counter, not world.uuid(): sending a message must not shift the ids of the records created after
 * it. Zero-padded so that the ids sort in sending order.
 */
function nextMessageId(world: World): string {
  const meta = world.data.collection<OutboxCounter>('meta');
  const next = (meta.get('outbox-counter')?.next ?? 0) + 1;
  meta.put({ id: 'outbox-counter', next });
  return `msg_${String(next).padStart(8, '0')}`;
}

/** Puts a message in the namespace's outbox (and, for an e-mail with --smtp, starts its delivery). */
export function sendMessage(world: World, input: MessageInput): OutboxMessage {
  const messages = outboxMessages(world);
  const courier = input.channel === 'email' ? world.courier : undefined;
  const message: OutboxMessage = {
    id: nextMessageId(world),
    channel: input.channel,
    to: input.to,
    ...(input.subject === undefined ? {} : { subject: input.subject }),
    text: input.text,
    ...(input.link === undefined ? {} : { link: input.link }),
    kind: input.kind,
    ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
    createdAt: world.clock.iso(),
    ...(courier === undefined ? {} : { delivery: { status: 'pending', server: courier.server } }),
  };
  messages.put(message);
  const oldest = messages.size > MAX_OUTBOX_MESSAGES ? messages.all()[0] : undefined;
  if (oldest !== undefined) messages.delete(oldest.id);
  courier?.dispatch(message, (delivery) => {
    // A namespace reset (or DELETE /__sandbox/outbox) while the server answered: nothing to update.
    const current = world.retired ? undefined : messages.get(message.id);
    if (current !== undefined) messages.put({ ...current, delivery });
  });
  return message;
}

export interface OutboxFilter {
  /** E-mail address (any case) or phone number. */
  recipient?: string;
  sessionId?: string;
  channel?: MessageChannel;
}

const paging = keysetPaging<OutboxMessage>({
  purpose: 'outbox',
  tokenParam: 'nextToken',
  scopeHint: 'other recipient, session or channel filters',
  idOf: (message) => message.id,
  createdAtOf: (message) => message.createdAt,
});

/** One page of the namespace's messages that match the filter, newest first; a bad token throws 400. */
export function listMessages(world: World, filter: OutboxFilter, request: { limit: number; token?: string; secret: string }): Page<OutboxMessage> {
  const recipient = filter.recipient?.toLowerCase();
  const matching = outboxMessages(world)
    .all()
    .filter(
      (message) =>
        (recipient === undefined || message.to.toLowerCase() === recipient) &&
        (filter.sessionId === undefined || message.sessionId === filter.sessionId) &&
        (filter.channel === undefined || message.channel === filter.channel),
    );
  const scope = JSON.stringify([filter.recipient ?? null, filter.sessionId ?? null, filter.channel ?? null]);
  return paging.page(matching, { ...request, scope });
}

/** Empties the namespace's outbox; answers how many messages were removed. */
export function clearOutbox(world: World): number {
  const messages = outboxMessages(world);
  const ids = messages.all().map((message) => message.id);
  for (const id of ids) messages.delete(id);
  return ids.length;
}
