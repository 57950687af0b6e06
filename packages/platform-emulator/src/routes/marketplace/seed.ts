/** The marketplace's demo data: the emulator's own app, entitlements, colleagues' requests and the demo user's requests for other apps. */
import type { SeedContext } from '../../context.js';
import type { AppRequestRec, AppType, MarketplaceSlice, OtherAppRec, RequestStatus } from './records.js';

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const uuid = (s: SeedContext) => {
  const h = s.rng.id(32, '0123456789abcdef');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export function seedMarketplace(s: SeedContext): MarketplaceSlice {
  const reasons = [
    'I need to pull meeting summaries into our dispatch board.',
    'Our loan team wants Zoom Docs playbooks linked from the CRM.',
    'Event registrations should land in the GrowthOS funnel automatically.',
    'The learning team needs recordings for instructor reviews.',
    'To post call outcomes from Zoom Phone into the pipeline.',
  ];
  // Colleague order in the users slice: Jordan, Priya, Marcus, Elena, Sam.
  const statuses: RequestStatus[] = ['pending', 'approved', 'pending', 'pending', 'rejected'];
  const requests: AppRequestRec[] = statuses.map((status, i) => ({
    colleague: i,
    request_date_time: s.at(-(3 + i * 4), 14 + i, 10),
    reason: reasons[i] ?? '',
    status,
  }));
  const other = (
    name: string,
    description: string,
    type: AppType,
    usage: 1 | 2,
    scopes: string[],
    day: number,
    status: RequestStatus,
  ): OtherAppRec => ({
    app_id: s.rng.id(22, ID_ALPHABET),
    app_name: name,
    app_description: description,
    app_type: type,
    app_usage: usage,
    scopes,
    request_id: s.rng.id(22, ID_ALPHABET),
    request_date_time: s.at(day, 15, 0),
    request_status: status,
  });
  return {
    app: {
      app_name: 'Meridian Fleet Gateway',
      app_description:
        'Connects the Meridian Fleet companies to Zoom: meetings, summaries, docs, events and phone in one place.',
      created_at: s.at(-240, 16, 0),
    },
    entitlements: [
      {
        entitlement_id: Number(s.rng.digits(9)),
        plan_name: 'Meridian Fleet Gateway Business',
        plan_id: uuid(s),
      },
    ],
    requests,
    otherApps: [
      other(
        'LoadBoard Sync',
        'Posts Zoom meeting outcomes to freight load boards.',
        'OAuthApp',
        2,
        ['meeting:read:meeting', 'meeting:read:list_meetings'],
        -2,
        'pending',
      ),
      other(
        'Lakeshore Logistics Portal',
        'Shared shipment tracking inside Zoom meetings.',
        'ZoomApp',
        2,
        ['zoomapp:inmeeting'],
        -6,
        'pending',
      ),
      other(
        'Brightline CRM for Zoom',
        'Logs calls and meetings to Brightline CRM.',
        'OAuthApp',
        1,
        ['meeting:read:meeting', 'user:read:user'],
        -40,
        'approved',
      ),
      other(
        'QuickQuote Bot',
        'Answers freight quote requests in Team Chat.',
        'ChatBotApp',
        2,
        ['imchat:bot'],
        -65,
        'rejected',
      ),
    ],
  };
}
