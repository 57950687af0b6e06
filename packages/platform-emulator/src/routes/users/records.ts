/** The users slice: the account's creation and last login, the demo user's licensed features, the colleagues. */
export interface Colleague {
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

export const USER_SCOPES = [
  'user:read:user',
  'user:read:user:admin',
  'user:read',
  'user:write',
  'user:read:admin',
  'user:write:admin',
  'user_profile',
  'user_info:read',
];
