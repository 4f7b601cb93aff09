// Stands in for your application in docker-compose.yml: it calls the sandbox as your code would (base
// URL and key from the environment), checks the answers, and exits 0 when all is as expected.
const base = process.env.IDV_BASE_URL ?? 'http://127.0.0.1:4010';
const headers = { 'x-api-key': process.env.IDV_API_KEY ?? 'sk_live_demo', 'content-type': 'application/json' };

async function call(method, path, body) {
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json();
  console.log(`${method} ${path} → ${response.status}`);
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

await call('GET', '/v1/auth/verify');
const session = await call('POST', '/v1/sessions', { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' });
// Links in answers follow the address the app used, so they open from inside the compose network.
if (!session.session_url?.startsWith(`${base}/`)) throw new Error(`session_url ${session.session_url} is not on ${base}`);
console.log(`session ${session.id}: ${session.session_url}`);
