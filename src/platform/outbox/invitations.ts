/**
 * Invitations: the e-mail and SMS that open a hosted page (a session, a credit check, a bank-statement or
 * credit-terms request, an age verification, a parent's consent). One wording table, one sender for every
 * area, and the X-Sandbox-Explain sentence that says which messages went out and why others did not.
 */
import type { World } from '../namespaces/world.ts';
import { sendMessage } from './outbox.ts';
import type { MessageKind, OutboxMessage } from './outbox.schemas.ts';

export type InvitationKind = Exclude<MessageKind, 'phone_verification_code'>;

interface Wording {
  subject: (sender: string) => string;
  /** What the page asks of the recipient, after "asks you to". */
  task: string;
  /** What the recipient needs, or what happens next (one sentence). */
  detail: string;
}

const WORDING: Record<InvitationKind, Wording> = {
  session_invitation: {
    subject: (sender) => `Verify your identity for ${sender}`,
    task: 'verify your identity',
    detail: "It takes a few minutes: have your ID document (passport, driver's licence or ID card) ready, and a device with a camera for a selfie.",
  },
  credit_check_invitation: {
    subject: (sender) => `${sender} requests a credit check`,
    task: 'complete a credit check',
    detail: 'You will confirm your details and give your consent before anything is checked.',
  },
  bank_statement_invitation: {
    subject: (sender) => `Share your bank statements with ${sender}`,
    task: 'share your bank statements',
    detail: 'Connect your bank on the secure page: only the statements of the requested period are shared, never your login.',
  },
  credit_terms_invitation: {
    subject: (sender) => `Credit terms application from ${sender}`,
    task: 'complete the credit terms application for your business',
    detail: 'Review the requested amount and period, then confirm or correct your business details.',
  },
  age_verification_invitation: {
    subject: (sender) => `Confirm your age for ${sender}`,
    task: 'confirm your age',
    detail: 'It takes a minute; nothing else about you is shared.',
  },
  parent_connect_invitation: {
    subject: (sender) => `Your child asks for your consent on ${sender}`,
    task: 'give your consent as a parent',
    detail: "You will verify that you are the parent, then accept or decline, and choose the limits of your child's account.",
  },
};

/** A channel of the invitation: its recipient, or why it is not sent (`send_email_invite false`, `no phone on file`). */
export type InvitationChannel = { to: string } | { skipped: string };

export interface Invitation {
  kind: InvitationKind;
  /** The session or request the page belongs to. */
  sessionId: string;
  /** The hosted page, built with hostedPageUrl (token and namespace included). */
  link: string;
  /** Who asks: the organization's name. */
  sender: string;
  /** The recipient's first name, for the greeting, when known. */
  firstName?: string;
  /** When the link stops working, ISO 8601, when it does. */
  expiresAt?: string;
  email: InvitationChannel;
  /** Absent where the service never texts (credit terms, Parent Connect). */
  sms?: InvitationChannel;
}

function emailText(invitation: Invitation, wording: Wording): string {
  return [
    invitation.firstName === undefined ? 'Hello,' : `Hello ${invitation.firstName},`,
    '',
    `${invitation.sender} asks you to ${wording.task}. ${wording.detail}`,
    '',
    'Open this link to start:',
    invitation.link,
    '',
    ...(invitation.expiresAt === undefined ? [] : [`The link works until ${invitation.expiresAt}.`]),
    'If you were not expecting this message, you can ignore it: nothing happens until you open the link.',
    '',
    `Sent for ${invitation.sender} by idv-sandbox: a test sandbox, no real person received this message.`,
  ].join('\n');
}

/** Sends the invitation's e-mail and SMS (those not skipped) to the outbox; returns what was sent and an explanation. */
export function sendInvitation(world: World, invitation: Invitation): { messages: OutboxMessage[]; explanation: string } {
  const wording = WORDING[invitation.kind];
  const common = { kind: invitation.kind, sessionId: invitation.sessionId, link: invitation.link };
  const messages: OutboxMessage[] = [];
  const notes: string[] = [];
  if ('to' in invitation.email) {
    const message = sendMessage(world, {
      ...common,
      channel: 'email',
      to: invitation.email.to,
      subject: wording.subject(invitation.sender),
      text: emailText(invitation, wording),
    });
    messages.push(message);
    notes.push(`e-mail invitation to ${message.to} (${message.id})`);
  } else {
    notes.push(`no e-mail invitation (${invitation.email.skipped})`);
  }
  if (invitation.sms !== undefined && 'to' in invitation.sms) {
    const message = sendMessage(world, {
      ...common,
      channel: 'sms',
      to: invitation.sms.to,
      text: `${invitation.sender}: please ${wording.task}: ${invitation.link}`,
    });
    messages.push(message);
    notes.push(`SMS invitation to ${message.to} (${message.id})`);
  } else if (invitation.sms !== undefined) {
    notes.push(`no SMS invitation (${invitation.sms.skipped})`);
  }
  const where = messages.length > 0 ? ', in the outbox (GET /__sandbox/outbox)' : '';
  return { messages, explanation: `${notes.join('; ')}${where}` };
}

/** The channel of an invitation flag: the recipient when the flag is on, else why nothing is sent. */
export function invitedIf(send: boolean, to: string | undefined, flag: string): InvitationChannel {
  if (!send) return { skipped: `${flag} false` };
  return to === undefined ? { skipped: 'no phone on file' } : { to };
}
