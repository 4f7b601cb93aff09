/** PEP_SANCTIONS on a hosted workflow session: the client's body, the screening engine's outcomes, bad bodies, headless refusal. */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.ts';
import { expectBadBody, expectHeadlessRefusal, expectRunEnded, hostedSession, sessionRecord, submitOk } from './hosted.ts';

const CLEAN = { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', date_of_birth: '1990-01-01' };

describe('PEP_SANCTIONS step', () => {
  it('completes for a person on no list, records empty pep_sanctions_data and verifies the session', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PEP_SANCTIONS']);
    const envelope = await submitOk(sandbox, sessionId, 'PEP_SANCTIONS', CLEAN);
    expect(envelope).toMatchObject({ step_id: 'PEP_SANCTIONS', step_status: 'COMPLETED', failure_reason: null, session_status: 'VERIFIED', current_step: null });
    const record = await sessionRecord(sandbox, sessionId);
    expect(record.analysis_data.pep_sanctions_data).toEqual({ peps: [], sanctions: [], both: [] });
  });

  it('ends the run with SANCTIONS_MATCH for a sanctioned person, the match recorded', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PEP_SANCTIONS']);
    const envelope = await submitOk(sandbox, sessionId, 'PEP_SANCTIONS', { first_name: 'Radomir', last_name: 'Kestrelov', date_of_birth: '1966-09-30' });
    expectRunEnded(envelope, 'SANCTIONS_MATCH');
    expect(envelope.failure_reason).toBe('SCREENING_MATCH');
    expect(envelope.failure.message).toContain('Radomir KESTRELOV');
    const record = await sessionRecord(sandbox, sessionId);
    expect(record.status).toBe('REJECTED');
    expect(record.analysis_data.pep_sanctions_data.sanctions).toHaveLength(1);
  });

  it('ends the run with SANCTIONS_MATCH for a person on both PEP and sanctions lists', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PEP_SANCTIONS']);
    const envelope = await submitOk(sandbox, sessionId, 'PEP_SANCTIONS', { first_name: 'Emile', last_name: 'Vautrin-Lacoste', date_of_birth: '1955-11-23' });
    expectRunEnded(envelope, 'SANCTIONS_MATCH');
    expect((await sessionRecord(sandbox, sessionId)).analysis_data.pep_sanctions_data.both).toHaveLength(1);
  });

  it('ends the run with PEP_MATCH for a politically exposed person on no sanctions list', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PEP_SANCTIONS']);
    const envelope = await submitOk(sandbox, sessionId, 'PEP_SANCTIONS', { first_name: 'Ottoline', last_name: 'Brackenbury', date_of_birth: '1961-07-14' });
    expectRunEnded(envelope, 'PEP_MATCH');
    expect((await sessionRecord(sandbox, sessionId)).analysis_data.pep_sanctions_data.peps).toHaveLength(1);
  });

  it('changes its result with the input: the same surname with another given name passes', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PEP_SANCTIONS']);
    const envelope = await submitOk(sandbox, sessionId, 'PEP_SANCTIONS', { first_name: 'Dorothea', last_name: 'Brackenbury', date_of_birth: '1961-07-14' });
    expect(envelope.step_status).toBe('COMPLETED');
  });

  it('answers 400 naming the client field for bad bodies, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PEP_SANCTIONS']);
    await expectBadBody(sandbox, sessionId, 'PEP_SANCTIONS', { last_name: 'Doe', date_of_birth: '1990-01-01' }, 'first_name');
    await expectBadBody(sandbox, sessionId, 'PEP_SANCTIONS', { ...CLEAN, date_of_birth: '1990-02-30' }, 'date_of_birth');
    await expectBadBody(sandbox, sessionId, 'PEP_SANCTIONS', { ...CLEAN, email: 'not-an-address' }, 'email');
    await expectBadBody(sandbox, sessionId, 'PEP_SANCTIONS', { ...CLEAN, firstName: 'Jane' }, 'firstName');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'PEP_SANCTIONS', CLEAN);
  });
});
