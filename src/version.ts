/** The package version, read once from package.json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from './app-root.js';

export const VERSION: string = (
  JSON.parse(readFileSync(path.join(APP_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** How the gateway names itself to the platform on every request, as the platform's own SDK does. */
export const USER_AGENT = `fleetgate/${VERSION}`;
