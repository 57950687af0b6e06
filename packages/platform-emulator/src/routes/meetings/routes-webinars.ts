/**
 * The webinar routes, which answer "plan is missing" while the demo user has no webinar licence.
 */
import { p, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import type { UsersSlice } from '../users.js';
import { MEETING_SCOPES } from './records.js';

export function registerWebinarRoutes(ctx: EmulatorContext): void {
  // Webinars need a licence the demo account lacks (feature.webinar false in settings).
  const webinarGate = () => {
    if (!ctx.slice<UsersSlice>('users').settingsFeature.webinar) throw zerr.webinarPlanMissing();
  };
  ctx.route({
    method: 'GET',
    url: '/users/:userId/webinars',
    scopes: MEETING_SCOPES.webinars,
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      webinarGate();
      return {
        next_page_token: '',
        page_count: 0,
        page_number: 1,
        page_size: 30,
        total_records: 0,
        webinars: [],
      };
    },
  });
  ctx.route({
    method: 'POST',
    url: '/users/:userId/webinars',
    scopes: ['webinar:write:webinar', 'webinar:write:webinar:admin', 'webinar:write', 'webinar:write:admin'],
    label: 'LIGHT',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      webinarGate();
      throw new ZoomError(400, 300, 'Validation Failed.');
    },
  });
}
