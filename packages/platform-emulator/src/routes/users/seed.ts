/** The users' demo data: the account's dates, the demo user's features and five colleagues. */
import type { SeedContext } from '../../context.js';
import type { UsersSlice } from './records.js';

const PEOPLE: [string, string, string, string][] = [
  ['Jordan', 'Reyes', 'Sales', 'Account Executive'],
  ['Priya', 'Natarajan', 'Operations', 'Operations Lead'],
  ['Marcus', 'Bell', 'Freight', 'Dispatch Manager'],
  ['Elena', 'Sokolova', 'Learning', 'Program Director'],
  ['Sam', 'Okafor', 'Finance', 'Loan Officer'],
];

export const seedUsers = (s: SeedContext): UsersSlice => ({
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
});
