/** The clips' demo data: the demo user's clips (some "recorded" later today) and their comments. */
import type { SeedContext } from '../../context.js';
import {
  type ClipRec,
  type ClipStatus,
  type ClipsSlice,
  type CommentRec,
  type ShareScope,
} from './records.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

// [title, description, created (days from today), modified (days from today), status, share scope]
const CLIPS: [string, string, number, number, ClipStatus, ShareScope][] = [
  [
    'GrowthOS v3.2 launch walkthrough',
    'Five-minute tour of the new lead-scoring dashboard for the sales team.',
    -1,
    0,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Dispatch board tour',
    'How to read the new dispatch board and claim uncovered loads.',
    0,
    0,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Safety minute: pre-trip inspection',
    'The 12-point pre-trip check every Meridian Freight driver runs before rolling.',
    0,
    0,
    'RECORD_END',
    'SAME_ORGANIZATON',
  ],
  [
    'Freight lane rate update: Midwest',
    'Why detention billing starts after two hours on the Milwaukee lanes.',
    -2,
    -2,
    'RECORD_SUCCESS',
    'INVITED_MEMBERS_ONLY',
  ],
  [
    'How to log a FleetWorks PM inspection',
    'Step-by-step for logging preventive maintenance in FleetWorks.',
    -3,
    -3,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Meridian Capital: term sheet explainer',
    'What each line of an equipment-loan term sheet means for borrowers.',
    -5,
    -4,
    'RECORD_SUCCESS',
    'ANYONE',
  ],
  [
    'Mortgage rate-lock FAQ',
    'Answers to the five questions borrowers ask most about rate locks.',
    -7,
    -7,
    'RECORD_SUCCESS',
    'ANYONE',
  ],
  [
    'Housing: unit turn checklist',
    'The make-ready checklist for Meridian Housing unit turns.',
    -9,
    -8,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Contracting bid review tips',
    'Three things to check before a Meridian Contracting bid goes out.',
    -11,
    -11,
    'RECORD_SUCCESS',
    'PRIVATE',
  ],
  [
    'Early Learning open house invite',
    'A welcome from the Meridian Early Learning director for families.',
    -14,
    -13,
    'RECORD_SUCCESS',
    'ANYONE',
  ],
  [
    'CDL cohort #14 welcome',
    'Welcome message for the new Meridian Learning CDL cohort.',
    -18,
    -18,
    'RECORD_SUCCESS',
    'ANYONE',
  ],
  [
    'MOG weekly update',
    'Operating-group highlights: freight volume, capital pipeline, housing occupancy.',
    -21,
    -21,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Brand refresh preview',
    'First look at the refreshed Meridian Fleet wordmark and subsidiary lockups.',
    -26,
    -25,
    'RECORD_SUCCESS',
    'INVITED_MEMBERS_ONLY',
  ],
  [
    'Expense policy in two minutes',
    'The short version of the expense policy for all subsidiaries.',
    -34,
    -34,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Customer onboarding: Lakeshore Logistics',
    'Kickoff recap for the Lakeshore Logistics account.',
    -45,
    -44,
    'RECORD_FAILED',
    'PRIVATE',
  ],
];

const COLLEAGUES: [string, string][] = [
  ['Jordan Reyes', 'jordan.reyes@meridianfleet.example'],
  ['Priya Natarajan', 'priya.natarajan@meridianfleet.example'],
  ['Marcus Bell', 'marcus.bell@meridianfleet.example'],
  ['Elena Sokolova', 'elena.sokolova@meridianfleet.example'],
  ['Sam Okafor', 'sam.okafor@meridianfleet.example'],
];
const REMARKS = [
  'Super clear, sharing this with the whole team.',
  'Can we get a version with captions for the yard screens?',
  'The section at 1:20 answers the question we keep getting.',
  'Nice. Could you add the link to the checklist in the description?',
  'Great pacing. This replaces our old slide deck.',
];
const REPLIES = ['Good idea, will do.', 'Thanks! Updated.', 'Added the link.'];

const uuid = (s: SeedContext) => {
  const h = s.rng.id(32, HEX);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
};

export function seedClips(s: SeedContext): ClipsSlice {
  const clips: ClipRec[] = [];
  const comments: Record<string, CommentRec[]> = {};
  const demoName = `${s.demo.firstName} ${s.demo.lastName}`;
  CLIPS.forEach(([title, description, createdDay, modifiedDay, status, scope], i) => {
    // Today's clips are recorded in the early hours (UTC) so they exist for most of the day.
    const created =
      Date.parse(s.at(createdDay, createdDay === 0 ? 1 : 14, 0)) +
      s.rng.int(0, 240) * 60_000 +
      s.rng.int(0, 59_999);
    const modified =
      modifiedDay === createdDay
        ? created + s.rng.int(1, 30) * 60_000
        : Date.parse(s.at(modifiedDay, modifiedDay === 0 ? 3 : 15, 0)) + s.rng.int(0, 180) * 60_000;
    const enablePass = scope === 'ANYONE' && i % 2 === 0;
    const clip: ClipRec = {
      clip_id: s.rng.id(38, ALNUM),
      title,
      description,
      duration: status === 'RECORD_SUCCESS' ? s.rng.int(45, 420) : 0,
      status,
      file_size:
        status === 'RECORD_SUCCESS' || status === 'RECORD_END' ? s.rng.int(2_000_000, 90_000_000) : 0,
      share_scope: scope,
      passcode: enablePass ? s.rng.id(8, 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789*') : '',
      enable_passcode: enablePass,
      thumb_id: s.rng.id(22, ALNUM),
      created,
      modified,
    };
    clips.push(clip);
    if (status !== 'RECORD_SUCCESS' || i % 3 === 2) return;
    const list: CommentRec[] = [];
    const n = s.rng.int(1, 3);
    for (let k = 0; k < n; k++) {
      const [name, email] = s.rng.pick(COLLEAGUES);
      const at = Math.min(
        modified + (k + 1) * s.rng.int(20, 240) * 60_000,
        Date.parse(s.at(modifiedDay, 23, 0)),
      );
      const mention = k === 0 && i % 2 === 0;
      const c: CommentRec = {
        comment_id: uuid(s),
        author: name,
        author_email: email,
        avatar_id: s.rng.id(22, ALNUM),
        content: mention
          ? `@[${demoName}](user:${s.demo.email}) ${REMARKS[(i + k) % REMARKS.length] ?? ''}`
          : (REMARKS[(i + k) % REMARKS.length] ?? ''),
        mentions: mention ? [{ display_name: demoName, email: s.demo.email }] : [],
        created: at,
        modified: at,
      };
      list.push(c);
      if (k === 0 && i % 4 === 0) {
        list.push({
          comment_id: uuid(s),
          author: demoName,
          author_email: s.demo.email,
          avatar_id: s.rng.id(22, ALNUM),
          content: REPLIES[i % REPLIES.length] ?? '',
          mentions: [],
          created: at + 12 * 60_000,
          modified: at + 12 * 60_000,
          parent: c.comment_id,
        });
      }
    }
    comments[clip.clip_id] = list;
  });
  return { clips, comments };
}
