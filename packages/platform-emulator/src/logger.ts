/**
 * The emulator's logger: pino, JSON lines, with the places its tokens and secrets can appear
 * redacted (headers, token fields, and secret-looking query values such as OAuth codes).
 */
import { pino, type Logger } from 'pino';

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.access_token',
  '*.refresh_token',
  '*.accessToken',
  '*.refreshToken',
  '*.client_secret',
  '*.clientSecret',
  '*.secret',
  '*.code_verifier',
];

/** Query parameter names whose values are secret: OAuth codes and states, tokens, signatures. */
const SECRET_QUERY = /code|state|key|token|secret|signature|passw|auth|verifier|assertion/i;

/** The request URL with every secret-looking query value replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && SECRET_QUERY.test(name) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: unknown;
}

export function createEmulatorLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.url ?? '') }),
      },
      base: { service: 'platform-emulator' },
    },
    destination ?? process.stdout,
  );
}
