import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxPageSchema } from '../../src/control/control.schemas.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', phone: '+14155550123' };

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** An SMTP server in the test process, on loopback, that keeps what it receives. */
async function mailCatcher(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The body as written: quoted-printable soft breaks joined and escapes decoded. */
const decoded = (raw: string) => raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function outboxOf(sandbox: TestSandbox) {
  return OutboxPageSchema.parse((await sandbox.call('GET', '/__sandbox/outbox', { key: null })).body).messages;
}

describe('--smtp', () => {
  it('delivers each outbox e-mail to the SMTP server (never the SMS) and records the delivery on the message', async () => {
    const catcher = await mailCatcher();
    closers.push(catcher.close);
    const sandbox = await testSandbox({ smtp: `smtp://127.0.0.1:${catcher.port}` });
    closers.push(() => sandbox.close());
    const created = await sandbox.call('POST', '/v1/sessions', { body: JANE });
    expect(created.status).toBe(200);
    const pending = (await outboxOf(sandbox)).find((message) => message.channel === 'email');
    expect(pending?.delivery).toEqual({ status: 'pending', server: `127.0.0.1:${catcher.port}` });

    await sandbox.platform.worlds.get('default').courier?.idle();
    expect(catcher.received).toHaveLength(1);
    const [mail] = catcher.received as [Received];
    expect(mail.from).toBe('no-reply@idv-sandbox.test');
    expect(mail.to).toEqual([JANE.email]);
    const text = decoded(mail.raw);
    expect(text).toContain('Subject: Verify your identity for Demo Org');
    expect(text).toMatch(/^X-Sandbox-Message-Id: msg_00000001\r$/im);
    expect(text).toContain(created.body.session_url);

    const [sms, email] = await outboxOf(sandbox);
    expect(sms).not.toHaveProperty('delivery');
    expect(email?.delivery).toMatchObject({ status: 'delivered', server: `127.0.0.1:${catcher.port}` });
    expect(text).toContain(`Message-ID: ${email?.delivery?.smtpMessageId}`);
  });

  it('answers the API request when the server is down, and shows the failure on the message, logged once', async () => {
    const catcher = await mailCatcher();
    await catcher.close(); // a port nobody listens on any more
    const warnings: string[] = [];
    const sandbox = await testSandbox({
      smtp: `smtp://127.0.0.1:${catcher.port}`,
      logger: { info: () => undefined, warn: (message) => warnings.push(message), error: () => undefined },
    });
    closers.push(() => sandbox.close());
    for (let n = 0; n < 2; n++) expect((await sandbox.call('POST', '/v1/sessions', { body: JANE })).status).toBe(200);
    await sandbox.platform.worlds.get('default').courier?.idle();
    const emails = (await outboxOf(sandbox)).filter((message) => message.channel === 'email');
    expect(emails.map((message) => message.delivery?.status)).toEqual(['failed', 'failed']);
    expect(emails[0]?.delivery?.error).toMatch(/ECONNREFUSED/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`not delivered to SMTP server 127.0.0.1:${catcher.port}`);
  });

  it('leaves a reset namespace alone when the server answers after the reset', async () => {
    const catcher = await mailCatcher();
    closers.push(catcher.close);
    const sandbox = await testSandbox({ smtp: `smtp://127.0.0.1:${catcher.port}` });
    closers.push(() => sandbox.close());
    const before = sandbox.platform.worlds.get('default');
    await sandbox.call('POST', '/v1/sessions', { body: JANE });
    await sandbox.call('POST', '/__sandbox/reset', { key: null, namespace: 'default' });
    await before.courier?.idle();
    expect(catcher.received).toHaveLength(1);
    expect(before.retired).toBe(true);
    expect(before.data.collection('outbox').get('msg_00000001')).toMatchObject({ delivery: { status: 'pending' } });
    expect(await outboxOf(sandbox)).toEqual([]);
  });

  it.each(['http://127.0.0.1:1025', 'mailpit:1025', 'smtp://'])('refuses to start with --smtp %s, naming the flag', async (url) => {
    await expect(createSandbox({ port: null, memory: true, smtp: url })).rejects.toThrow(/--smtp must be/);
  });
});
