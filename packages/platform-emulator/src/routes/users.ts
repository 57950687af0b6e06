/**
 * Users: the demo user (`me`), their settings (webinar licence off by default, so the gateway
 * meets the platform's "webinar plan is missing" path), and the account's user list.
 */
export type { Colleague, UsersSlice } from './users/records.js';
export { userObject } from './users/shapes.js';
export { usersModule } from './users/module.js';
