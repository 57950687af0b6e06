/**
 * The one error shape, `{"error": {"code", "message", "details?"}}`, and the one place that maps
 * thrown errors to it. Expected failures are AppErrors with a snake_case code; anything else is a
 * bug and becomes a 500 whose body says nothing about internals (the log has the whole error).
 */
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody, type ErrorBody } from '../core/errors.js';
import { withSecurityHeaders } from '../core/security-headers.js';

export { AppError, errorBody, type ErrorBody };

/** Fastify's own error codes that are the client's fault, mapped to ours. */
const FASTIFY_CODES: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json' },
  FST_ERR_BAD_URL: { status: 400, code: 'bad_url' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'bad_request' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long' },
};

/** Router-level failures carry the raw path in their message; ours never echo it. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  bad_url: 'The URL is not valid (malformed percent-encoding).',
  uri_too_long: 'A path segment is too long.',
  bad_request: 'The request is not valid.',
};

/**
 * Fastify's `frameworkErrors`: failures the router meets before any route (a malformed URL, a
 * path parameter over the length limit) answer in the one shape too. No hook runs for them, so
 * the headers every response carries are set here.
 */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const known = FASTIFY_CODES[err.code] ?? { status: 400, code: 'bad_request' };
  req.log.debug({ code: err.code }, 'request rejected by the router');
  void reply
    .code(known.status)
    .headers(withSecurityHeaders({ 'x-request-id': req.id }))
    .type('application/json; charset=utf-8')
    .send(errorBody(known.code, FRAMEWORK_MESSAGES[known.code] ?? 'The request is not valid.'));
}

/** The status and body an error answers with (the error handler's mapping, also used by the webhook intake). */
export function errorResponse(err: FastifyError | AppError | Error): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    return { status: err.status, body: errorBody(err.code, err.message, err.details) };
  }
  const fe = err as FastifyError;
  if (fe.validation) {
    return {
      status: 400,
      body: errorBody('validation_failed', 'The request is not valid.', {
        issues: fe.validation.map((v) => ({
          where: fe.validationContext ?? 'request',
          path: v.instancePath || '/',
          message: v.message ?? 'invalid',
        })),
      }),
    };
  }
  const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return { status: known.status, body: errorBody(known.code, fe.message) };
  if (err instanceof SyntaxError && fe.statusCode === 400) {
    return { status: 400, body: errorBody('invalid_json', 'The request body is not valid JSON.') };
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, body: errorBody('bad_request', fe.message) };
  }
  return { status: 500, body: errorBody('internal_error', 'Something went wrong on our side.') };
}

/** How an answered error is logged: a 5xx with the whole error, anything else as its code at debug. */
export function logErrorAnswer(
  log: Pick<FastifyBaseLogger, 'error' | 'debug'>,
  err: unknown,
  status: number,
  body: ErrorBody,
  bindings: Record<string, unknown> = {},
): void {
  if (status >= 500) log.error({ ...bindings, err }, 'request failed');
  else log.debug({ ...bindings, code: body.error.code }, 'request rejected');
}

/**
 * The one error handler; `headers` are what a scope adds to every error it answers (the public
 * brand's CORS header, so a browser can read its 4xx as it reads its 2xx).
 */
export function errorHandler(headers: Record<string, string> = {}) {
  return (err: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const { status, body } = errorResponse(err);
    logErrorAnswer(req.log, err, status, body);
    void reply.headers(headers);
    if (err instanceof AppError && err.headers) void reply.headers(err.headers);
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  };
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler(errorHandler());
}

/** The 404 answer (route-table.ts installs the not-found handler that sends it). */
export function sendNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .type('application/json; charset=utf-8')
    .send(errorBody('not_found', `No resource at ${req.method} ${req.url.split('?')[0] ?? '/'}.`));
}
