/**
 * Keeps the /_sandbox control API to the operator's own tools. A web page in the operator's
 * browser may send requests to 127.0.0.1 too: "simple" ones (no body, text/plain, a form) go
 * out without asking, and a name the page's site controls can be re-pointed at 127.0.0.1 (DNS
 * rebinding), after which the page reads the answers as well. So every /_sandbox request must
 * name the emulator's own address in Host (403 `host_not_allowed`), a write (POST, DELETE, …)
 * must say `Content-Type: application/json` (415 `unsupported_media_type`), which a page on
 * another origin can only send after a CORS preflight, and every preflight is refused (403
 * `cors_refused`, no Access-Control-Allow-* header). The platform's own surface (/oauth, /v2,
 * /mcp) is left as the platform has it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * By the route matched, so a percent-encoded path (`/%5Fsandbox/…`, which the router decodes)
 * is a control path too; by the URL for what matched no route (a preflight, a 404).
 */
const isControl = (req: FastifyRequest): boolean =>
  /^\/_sandbox(\/|\?|$)/.test(req.routeOptions.url ?? req.url);

/** The Host values naming the configured address: its own, and the loopback names on its port. */
function ownHosts(baseUrl: string): Set<string> {
  const base = new URL(baseUrl);
  const port = base.port || (DEFAULT_PORTS[base.protocol] ?? '');
  const hosts = new Set([base.host.toLowerCase(), ...LOOPBACK_NAMES.map((n) => `${n}:${port}`)]);
  // On the scheme's default port a client may leave the port out.
  if (!base.port) for (const n of LOOPBACK_NAMES) hosts.add(n);
  return hosts;
}

/** A JSON media type: application/json, with parameters (a charset) or none. */
const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType.trim());

const refuse = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).header('cache-control', 'no-store').send({ error: { code, message } });

export function guardControl(app: FastifyInstance, baseUrl: string): void {
  const configured = ownHosts(baseUrl);
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!isControl(req)) return;
    // The loopback names on the port the request came in on count as well, in case the emulator
    // listens elsewhere than its configured address says (SANDBOX_PORT=0).
    const host = req.headers.host?.toLowerCase();
    const port = req.socket.localPort;
    if (!host || !(configured.has(host) || LOOPBACK_NAMES.some((n) => host === `${n}:${port}`)))
      return refuse(
        reply,
        403,
        'host_not_allowed',
        "The control API answers only requests addressed to the emulator's own address (127.0.0.1, localhost or [::1] with its port).",
      );
    if (req.method === 'OPTIONS')
      return refuse(reply, 403, 'cors_refused', 'The control API is not open to other origins.');
    if (!SAFE_METHODS.has(req.method) && !isJson(req.headers['content-type']))
      return refuse(
        reply,
        415,
        'unsupported_media_type',
        'Control API writes need Content-Type: application/json (an empty body is fine).',
      );
  });
}

/**
 * The control routes' body parser: JSON only, and an empty body is no body (Fastify's own JSON
 * parser refuses it), so a bodiless command can still say it is JSON. Installed in the control
 * routes' own scope, so the platform's routes keep the platform's rules.
 */
export function controlBodyParser(scope: FastifyInstance): void {
  const json = scope.getDefaultJsonParser('error', 'error');
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    void json(req, text, done);
  });
}
