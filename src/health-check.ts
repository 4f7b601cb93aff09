/**
 * The container health check (`node dist/health-check.js`, the Dockerfile's HEALTHCHECK): asks
 * `/healthz` of the running sandbox at the address it wrote to its port file (`--port-file`, env
 * IDV_SANDBOX_PORT_FILE) once it listened, so the check finds it however its port was given (flag, env,
 * default, or 0 for any free port). Exit 0 healthy, 1 not, with the reason on one line. It imports
 * nothing of the app, so it starts in milliseconds at every interval.
 */
import { parseArgs } from 'node:util';
import { readPortFile } from './port-file.ts';

const TIMEOUT_MS = 2_500;

async function checkHealth(portFile: string | undefined): Promise<{ healthy: boolean; message: string }> {
  if (!portFile)
    return { healthy: false, message: 'No port file: start the sandbox with --port-file <path> (env IDV_SANDBOX_PORT_FILE) and give the check the same.' };
  const listening = readPortFile(portFile);
  if (typeof listening === 'string') return { healthy: false, message: listening };
  try {
    const response = await fetch(`${listening.url}/healthz`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { healthy: response.ok, message: `${listening.url}/healthz answered ${response.status}` };
  } catch (error) {
    return { healthy: false, message: `${listening.url}/healthz did not answer: ${(error as Error).message}` };
  }
}

const { values } = parseArgs({ options: { 'port-file': { type: 'string' } }, strict: true });
const { healthy, message } = await checkHealth(values['port-file'] ?? process.env.IDV_SANDBOX_PORT_FILE);
(healthy ? console.log : console.error)(`idv-sandbox health check: ${message}`);
process.exit(healthy ? 0 : 1);
