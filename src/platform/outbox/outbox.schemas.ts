/**
 * The outbox's message: one zod schema is the stored shape, the TypeScript type and the control plane's
 * OpenAPI component. The message kinds are one table that the docs and the console read.
 */
import { z } from '@hono/zod-openapi';

export const MESSAGE_CHANNELS = ['email', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** Every message the service sends, by kind: what triggers it. */
export const MESSAGE_KINDS = {
  session_invitation:
    'POST /v1/sessions: e-mail unless send_email_invite is false, SMS unless send_phone_invite is false or there is no phone; opens the hosted page. A headless workflow session sends none',
  credit_check_invitation: 'POST /v1/credit-check/hard and /soft, with the same two flags: the credit check page',
  bank_statement_invitation: 'POST /v1/financial (sendEmailInvite, sendPhoneInvite): the bank-statement page',
  credit_terms_invitation: "POST /v1/credit-terms (sendEmailInvite): an e-mail to businessEmail, the business's credit-terms page",
  age_verification_invitation: 'POST /v1/age-verification (sendEmailInvite, sendPhoneInvite): the age verification page',
  parent_connect_invitation:
    "The invite event of a Parent Connect request (its page, or the control plane's events call): an e-mail to the address of the child's session, the only one the request has; the parent's page",
  phone_verification_code: "A workflow's PHONE_VERIFICATION step starts: the one-time code, by SMS",
} as const;
export type MessageKind = keyof typeof MESSAGE_KINDS;
const KIND_NAMES = Object.keys(MESSAGE_KINDS) as [MessageKind, ...MessageKind[]];

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const DeliverySchema = z
  .object({
    status: z.enum(DELIVERY_STATUSES).openapi({ description: 'pending while the SMTP server has not answered yet.' }),
    server: z.string().openapi({ description: 'The SMTP server (host:port of --smtp).', example: '127.0.0.1:1025' }),
    smtpMessageId: z.string().optional().openapi({ description: 'The Message-ID header of the delivered e-mail.' }),
    error: z.string().optional().openapi({ description: 'Why the delivery failed (the API request that sent the message did not fail).' }),
  })
  .openapi('SandboxMessageDelivery');
export type Delivery = z.infer<typeof DeliverySchema>;

export const OutboxMessageSchema = z
  .object({
    id: z.string().openapi({ example: 'msg_00000001' }),
    channel: z.enum(MESSAGE_CHANNELS),
    to: z.string().openapi({ description: 'E-mail address or E.164 phone number.', example: 'jane.doe@example.com' }),
    subject: z.string().optional().openapi({ description: 'E-mails only.' }),
    text: z.string().openapi({ description: 'The body as the recipient reads it (plain text).' }),
    link: z.string().optional().openapi({ description: 'The page the message opens (with its token and namespace), when it has one.' }),
    kind: z.enum(KIND_NAMES),
    sessionId: z.string().optional().openapi({
      description: 'The session or request the message is about (session, credit check, bank-statement or credit-terms request, Parent Connect request).',
    }),
    createdAt: z.string().openapi({ description: 'Virtual clock, ISO 8601.' }),
    delivery: DeliverySchema.optional().openapi({ description: 'E-mails with --smtp only: the delivery to the SMTP server.' }),
  })
  .openapi('SandboxOutboxMessage');
export type OutboxMessage = z.infer<typeof OutboxMessageSchema>;
