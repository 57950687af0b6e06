/** The users' wire shapes: the demo user, and their settings (the licensed features from the slice). */
import type { DemoUser } from '../../context.js';
import type { UsersSlice } from './records.js';

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

/** The demo user's settings as `GET /users/{userId}/settings` answers. */
export function userSettings(f: UsersSlice['settingsFeature']) {
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
}
