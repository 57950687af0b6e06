/**
 * Users: the demo user (`me`), their settings (webinar licence off by default, so the gateway
 * meets the platform's "webinar plan is missing" path), and the account's user list.
 */
import { defineModule, p, q } from '../context.js';
import type { DemoUser } from '../context.js';

interface Colleague {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  type: number;
  dept: string;
  job_title: string;
}

export interface UsersSlice {
  createdAt: string;
  lastLogin: string;
  settingsFeature: {
    webinar: boolean;
    zoom_events: boolean;
    zoom_phone: boolean;
    zoom_revenue_accelerator: boolean;
  };
  colleagues: Colleague[];
}

const PEOPLE: [string, string, string, string][] = [
  ['Jordan', 'Reyes', 'Sales', 'Account Executive'],
  ['Priya', 'Natarajan', 'Operations', 'Operations Lead'],
  ['Marcus', 'Bell', 'Freight', 'Dispatch Manager'],
  ['Elena', 'Sokolova', 'Learning', 'Program Director'],
  ['Sam', 'Okafor', 'Finance', 'Loan Officer'],
];

export function userObject(demo: DemoUser, s: UsersSlice, baseUrl: string) {
  return {
    id: demo.id,
    email: demo.email,
    first_name: demo.firstName,
    last_name: demo.lastName,
    display_name: `${demo.firstName} ${demo.lastName}`,
    type: 2,
    role_name: 'Owner',
    role_id: '0',
    pmi: demo.pmi,
    use_pmi: false,
    personal_meeting_url: `${baseUrl}/j/${demo.pmi}`,
    timezone: demo.timezone,
    verified: 1,
    dept: 'Operations',
    job_title: 'Head of Operations',
    company: 'Meridian Operating Group',
    location: 'Chicago, IL',
    language: 'en-US',
    created_at: s.createdAt,
    user_created_at: s.createdAt,
    last_login_time: s.lastLogin,
    last_client_version: '6.4.1.61540(mac)',
    pic_url: `${baseUrl}/p/${demo.id}.png`,
    phone_numbers: [{ code: '+1', country: 'US', label: 'Office', number: '3125550142', verified: true }],
    group_ids: [],
    im_group_ids: [],
    account_id: demo.accountId,
    account_number: 10009876,
    status: 'active',
    jid: `${demo.id.toLowerCase()}@xmpp.zoom.us`,
    cluster: 'us06',
    login_types: [100],
    license_info_list: [{ license_type: 'MEETING', license_option: 2, subscription_id: 'SUB-0001' }],
  };
}

const USER_SCOPES = [
  'user:read:user',
  'user:read:user:admin',
  'user:read',
  'user:write',
  'user:read:admin',
  'user:write:admin',
  'user_profile',
  'user_info:read',
];

export const usersModule = defineModule<UsersSlice>({
  name: 'users',
  seed: (s) => ({
    createdAt: s.at(-420, 15, 4),
    lastLogin: s.at(-1, 13, 22),
    settingsFeature: { webinar: false, zoom_events: true, zoom_phone: true, zoom_revenue_accelerator: true },
    colleagues: PEOPLE.map(([first, last, dept, title]) => ({
      id: s.rng.id(22),
      email: `${first.toLowerCase()}.${last.toLowerCase()}@meridianfleet.example`,
      first_name: first,
      last_name: last,
      type: s.rng.pick([1, 2]),
      dept,
      job_title: title,
    })),
  }),
  register(ctx) {
    const slice = () => ctx.slice<UsersSlice>('users');
    ctx.route({
      method: 'GET',
      url: '/users/:userId',
      scopes: USER_SCOPES,
      label: 'LIGHT',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        return userObject(ctx.demo, slice(), ctx.baseUrl);
      },
    });
    ctx.route({
      method: 'GET',
      url: '/users/:userId/settings',
      scopes: [
        'user:read:settings',
        'user:read:settings:admin',
        'user:read',
        'user:write',
        'user:read:admin',
        'user:write:admin',
      ],
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        const f = slice().settingsFeature;
        return {
          schedule_meeting: {
            host_video: true,
            participants_video: false,
            audio_type: 'both',
            join_before_host: false,
            use_pmi_for_scheduled_meetings: false,
          },
          in_meeting: {
            e2e_encryption: false,
            chat: true,
            polling: true,
            breakout_room: true,
            waiting_room: true,
          },
          email_notification: { cloud_recording_available_reminder: true, jbh_reminder: true },
          recording: {
            local_recording: true,
            cloud_recording: true,
            auto_recording: 'cloud',
            record_audio_file: true,
            save_chat_text: true,
            show_timestamp: true,
          },
          telephony: { third_party_audio: false, show_international_numbers_link: true },
          feature: {
            meeting_capacity: 300,
            large_meeting: false,
            webinar: f.webinar,
            ...(f.webinar ? { webinar_capacity: 500 } : {}),
            zoom_events: f.zoom_events,
            zoom_phone: f.zoom_phone,
            zoom_revenue_accelerator: f.zoom_revenue_accelerator,
            zoom_iq_for_sales: f.zoom_revenue_accelerator,
            zoom_clips_plus: true,
            zoom_docs: true,
            zoom_mail_calendar: true,
            zoom_scheduler: true,
            zoom_whiteboard: true,
          },
          tsp: { call_out: false, show_international_numbers_link: false },
          profile: { recording_storage_location: { allowed_values: ['US'], value: 'US' } },
        };
      },
    });
    ctx.route({
      method: 'GET',
      url: '/users',
      scopes: [
        'user:read:list_users:admin',
        'user:read',
        'user:write',
        'user:read:admin',
        'user:write:admin',
      ],
      label: 'MEDIUM',
      handler: (req) => {
        const status = q(req, 'status') ?? 'active';
        const me = userObject(ctx.demo, slice(), ctx.baseUrl);
        const all = [
          {
            id: me.id,
            email: me.email,
            first_name: me.first_name,
            last_name: me.last_name,
            display_name: me.display_name,
            type: 2,
            pmi: me.pmi,
            timezone: me.timezone,
            verified: 1,
            dept: me.dept,
            created_at: me.created_at,
            last_login_time: me.last_login_time,
            status: 'active',
            role_id: '0',
            user_created_at: me.created_at,
          },
          ...slice().colleagues.map((c) => ({
            ...c,
            display_name: `${c.first_name} ${c.last_name}`,
            verified: 1,
            status: 'active',
            timezone: ctx.demo.timezone,
            created_at: slice().createdAt,
            user_created_at: slice().createdAt,
            role_id: '2',
          })),
        ].filter((u) => u.status === status);
        const page = ctx.paginate(req, all, { defaultSize: 30, maxSize: 2000 });
        return {
          next_page_token: page.nextPageToken,
          page_count: Math.ceil(page.totalRecords / page.pageSize),
          page_number: 1,
          page_size: page.pageSize,
          total_records: page.totalRecords,
          users: page.items,
        };
      },
    });
  },
});
