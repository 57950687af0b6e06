/** The marketplace slice's records and the scopes of its routes. */
export type AppType = 'ZoomApp' | 'ChatBotApp' | 'OAuthApp';
export type RequestStatus = 'pending' | 'approved' | 'rejected';

export interface OtherAppRec {
  app_id: string;
  app_name: string;
  app_description: string;
  app_type: AppType;
  app_usage: 1 | 2;
  scopes: string[];
  /** The demo user's request to use it. */
  request_id: string;
  request_date_time: string;
  request_status: RequestStatus;
}

export interface AppRequestRec {
  /** Which colleague (index into the users slice's colleagues) asked. */
  colleague: number;
  request_date_time: string;
  reason: string;
  status: RequestStatus;
}

export interface MarketplaceSlice {
  app: { app_name: string; app_description: string; created_at: string };
  entitlements: { entitlement_id: number; plan_name: string; plan_id: string }[];
  requests: AppRequestRec[];
  otherApps: OtherAppRec[];
}

export const SCOPES = {
  app: [
    'marketplace:read:app',
    'marketplace:read:app:admin',
    'marketplace_app:read:admin',
    'marketplace_app:read',
  ],
  monetization: [
    'marketplace:read:list_user_entitlements',
    'marketplace:read:list_user_entitlements:admin',
    'marketplace_entitlement:read:admin',
    'marketplace_entitlement:read',
  ],
  userEntitlements: [
    'marketplace:read:list_user_entitlements',
    'marketplace:read:list_user_entitlements:admin',
    'marketplace_entitlement:read',
    'marketplace_entitlement:read:admin',
  ],
  requests: ['marketplace:read:app_request:admin', 'marketplace_app:read:admin'],
  userApps: [
    'marketplace:read:list_user_app_requests:admin',
    'marketplace:read:list_user_app_requests',
    'marketplace_app:read:admin',
    'marketplace_app:read',
  ],
};
