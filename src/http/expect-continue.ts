/**
 * `Expect: 100-continue` is answered only once a request has passed every check made before its
 * body is read: the API key, the failure lockout, the budgets, an MCP endpoint's Origin (all
 * onRequest hooks). Node would otherwise send 100 Continue at once, and a caller without the key
 * could make the server ask for a large body it will refuse. The server hands such requests to
 * `awaitContinue` instead of answering them itself; a preParsing hook, which runs only once
 * every onRequest hook let the request through, sends 100 Continue. A request refused before
 * then gets its answer alone, and Node closes the connection instead of reading the unasked
 * body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface ExpectContinue {
  /** For the server's checkContinue event: marks the request, then serves it as any other. */
  awaitContinue(
    req: IncomingMessage,
    res: ServerResponse,
    serve: (req: IncomingMessage, res: ServerResponse) => void,
  ): void;
  /** Adds the hook that sends 100 Continue once the request is let through. */
  install(app: FastifyInstance): void;
}

export function expectContinue(): ExpectContinue {
  const waiting = new WeakSet<IncomingMessage>();
  return {
    awaitContinue(req, res, serve) {
      waiting.add(req);
      serve(req, res);
    },
    install(app) {
      app.addHook('preParsing', (req, reply, payload, done) => {
        if (waiting.delete(req.raw)) reply.raw.writeContinue();
        done(null, payload);
      });
    },
  };
}
