/**
 * Sandbox autolink: links the demo account at start through the same authorization-code flow a
 * browser would follow, over real HTTP (our start path → the emulator's authorize → our
 * callback, carrying the state cookie), so the newcomer's gateway is linked with no clicks.
 */
export async function autolinkOverHttp(o: {
  selfBase: string;
  apiKey: string;
  fetch?: typeof fetch;
}): Promise<{ linked: boolean; account?: unknown }> {
  const f = o.fetch ?? fetch;
  const start = await f(`${o.selfBase}/api/video/oauth/start`, {
    headers: { authorization: `Bearer ${o.apiKey}` },
    redirect: 'manual',
  });
  const authorize = start.headers.get('location');
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (start.status !== 302 || !authorize) throw new Error(`oauth/start answered ${start.status}`);
  const consent = await f(authorize, { redirect: 'manual' });
  const back = consent.headers.get('location');
  if (consent.status !== 302 || !back) throw new Error(`authorize answered ${consent.status}`);
  // The registered callback may name the public URL; call ourselves on the address we listen on.
  const cb = new URL(back);
  const callback = await f(`${o.selfBase}${cb.pathname}${cb.search}`, {
    headers: { cookie, accept: 'application/json' },
    redirect: 'manual',
  });
  const body = (await callback.json()) as {
    linked?: boolean;
    account?: unknown;
    error?: { message?: string };
  };
  if (callback.status !== 200 || !body.linked)
    throw new Error(`callback answered ${callback.status}: ${body.error?.message ?? 'not linked'}`);
  return { linked: true, account: body.account };
}
