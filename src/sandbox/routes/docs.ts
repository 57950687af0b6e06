/**
 * Zoom Docs ("hub content"): the demo user's My Docs tree (two folders of playbooks and meeting
 * notes, plus a brand guide and a data table), file metadata, Markdown content, create, import
 * from Markdown, rename, delete, children and search. The platform documents no webhooks for
 * these operations, so none are sent.
 */
import type { FastifyRequest } from 'fastify';
import { body, defineModule, p, zerr, ZoomError } from '../context.js';
import type { SandboxContext, SandboxRequest, SeedContext } from '../context.js';
import { zoomTime } from '../time.js';

export type DocFileType = 'doc' | 'folder' | 'data_table';

export interface DocFileRec {
  file_id: string;
  file_name: string;
  file_type: DocFileType;
  /** The folder or doc it sits under; the user's root id for My Docs. */
  parent_id: string;
  owner_id: string;
  created_time: string;
  modified_time: string;
  /** Markdown; empty for folders. */
  content: string;
}

export interface DocsSlice {
  rootId: string;
  files: DocFileRec[];
}

const SCOPES = {
  create: ['docs:write:file', 'docs:write:file:admin', 'docs:write', 'docs:write:admin'],
  import: ['docs:write:import', 'docs_import:write'],
  get: ['docs:read:file', 'docs:read:file:admin', 'docs:read', 'docs:read:admin'],
  content: ['docs:read:export', 'docs_export:read'],
  update: ['docs:update:file', 'docs:update:file:admin', 'docs:write', 'docs:write:admin'],
  delete: ['docs:delete:file', 'docs:delete:file:admin', 'docs:delete', 'docs:delete:admin'],
  children: ['docs:read:list_children', 'docs:read:list_children:admin', 'docs:read', 'docs:read:admin'],
  root: ['docs:read:file:admin', 'docs:read:admin'],
  search: ['canvas:write:file_search', 'canvas_file_search:write'],
};

/** The import endpoint's documented limit: 100 KB of Markdown. */
const IMPORT_LIMIT_BYTES = 100 * 1024;
const FILE_TYPES: readonly DocFileType[] = ['doc', 'folder', 'data_table'];
const SEARCH_TYPES = [
  'paper_doc',
  'presentation',
  'spreadsheet',
  'doc',
  'data_table',
  'note',
  'meeting_summary',
  'meeting_agenda',
];

/**
 * The Docs service documents 404s by message only; its block endpoints give code 4000 for a file
 * that is not found, so that code is used with each endpoint's own message.
 */
const notFound = (message: string) => new ZoomError(404, 4000, message);

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function seedDocs(s: SeedContext): DocsSlice {
  const rootId = s.rng.id(22, ID_ALPHABET);
  const files: DocFileRec[] = [];
  const add = (
    name: string,
    type: DocFileType,
    parent: string,
    createdDay: number,
    modifiedDay: number,
    content: string,
  ) => {
    const f: DocFileRec = {
      file_id: s.rng.id(22, ID_ALPHABET),
      file_name: name,
      file_type: type,
      parent_id: parent,
      owner_id: s.demo.id,
      created_time: s.at(createdDay, s.rng.int(13, 21), s.rng.pick([0, 15, 30, 45])),
      modified_time: s.at(modifiedDay, s.rng.int(13, 21), s.rng.pick([0, 15, 30, 45])),
      content,
    };
    files.push(f);
    return f.file_id;
  };
  const date = (days: number) => s.at(days).slice(0, 10);

  const playbooks = add('Playbooks', 'folder', rootId, -180, -6, '');
  const notes = add('Meeting notes', 'folder', rootId, -150, -1, '');

  add(
    'GrowthOS inbound lead-response playbook',
    'doc',
    playbooks,
    -120,
    -9,
    `# GrowthOS inbound lead-response playbook

Owner: GrowthOS marketing · Applies to: every inbound form, chat and call lead

## Service levels
- Web form and chat leads: first human touch within **5 minutes** during business hours.
- After-hours leads: automated acknowledgement at once, call-back before 10:00 the next business day.
- Three attempts over five business days (call, email, SMS) before a lead is marked *unresponsive*.

## Routing
| Lead source | Routed to | Notes |
|---|---|---|
| Meridian Mortgage landing pages | Mortgage loan officers | Round robin; licensed state must match |
| Meridian Capital "working capital" ads | Capital business bankers | Over $250k goes to the senior desk |
| Meridian Housing listings | Leasing team | Book a tour in the first call |
| FleetWorks service requests | FleetWorks intake | Same-day callback for roadside issues |

## First-call script
1. Confirm the name, company and the reason for the enquiry.
2. Qualify: timeline, budget or loan size, decision makers.
3. Book the next step before hanging up (Zoom meeting, tour or site visit).
4. Log the call in the CRM with the campaign code.

## Reporting
Weekly funnel review every Tuesday: speed-to-lead, contact rate, booked-meeting rate, cost per booked meeting.
`,
  );
  add(
    'Meridian Freight detention and layover playbook',
    'doc',
    playbooks,
    -110,
    -14,
    `# Meridian Freight detention and layover playbook

## When detention starts
Detention starts **2 hours** after the appointment time when the driver checked in on time.

## Steps for dispatch
1. At 1h45m on site, message the shipper or receiver contact and copy the customer rep.
2. At 2h, start the detention clock in the TMS and notify the customer in writing.
3. Every hour after that, post an update to the load notes.
4. Collect signed in/out times on the BOL or a gate photo.

## Rates
- Detention: $75 per hour, billed in 15-minute increments, after the 2-hour free time.
- Layover: $350 per day when the load cannot be delivered and the driver must wait overnight.
- TONU (truck ordered, not used): $250.

## Billing
Detention and layover are invoiced with the freight bill. Disputes go to the lane manager within 48 hours.
`,
  );
  add(
    'Meridian Mortgage rate-lock playbook',
    'doc',
    playbooks,
    -95,
    -4,
    `# Meridian Mortgage rate-lock playbook

## Before locking
- Signed purchase agreement or an application with a known closing date.
- Pre-approval with income and asset documents reviewed.
- Borrower has chosen the product (30-year fixed, 15-year fixed, 7/6 ARM, FHA, VA).

## Lock periods
| Period | Use when | Price adjustment |
|---|---|---|
| 30 days | Closing scheduled in under 4 weeks | none |
| 45 days | Standard purchase | +0.125 points |
| 60 days | New construction, slow title | +0.25 points |

## Extensions
Request extensions **3 business days** before expiry. Each 7-day extension costs 0.0625 points unless the delay is ours.

## Float-down
One float-down is allowed when market rates fall at least 0.25% and the loan is 10+ days from closing.

## Communication
Send the lock confirmation the same day, and remind the borrower 10 and 3 days before expiry.
`,
  );
  add(
    'FleetWorks preventive-maintenance intake playbook',
    'doc',
    playbooks,
    -80,
    -20,
    `# FleetWorks preventive-maintenance intake playbook

## Service intervals
- **PM-A** every 15,000 miles: oil and filters, grease chassis, brake and tire inspection.
- **PM-B** every 45,000 miles: PM-A plus fuel filters, coolant test, air dryer cartridge.
- **DOT annual** inspection every 12 months, with the sticker and the report filed in the unit folder.

## Intake checklist
1. Unit number, VIN, odometer and engine hours.
2. Driver-reported defects from the DVIR.
3. Open recalls and warranty status.
4. Parts on hand; order missing parts before the unit arrives.

## Turnaround targets
PM-A in 4 hours, PM-B in one shift, road calls dispatched within 30 minutes.
`,
  );
  add(
    'Meridian Early Learning enrollment tour playbook',
    'doc',
    playbooks,
    -60,
    -2,
    `# Meridian Early Learning enrollment tour playbook

## Before the tour
- Confirm the child's age group: infants, toddlers, preschool or pre-K.
- Check open seats for the requested start date.
- Send the family the parent handbook and the tuition sheet.

## The tour (30 minutes)
1. Welcome at the front desk; sign in on the visitor log.
2. Visit the classroom for the child's age group; introduce the lead teacher.
3. Show the playground, the nap room and the kitchen.
4. Explain the daily schedule, meals and the parent app.

## After the tour
- Same-day thank-you email with the enrollment link.
- Follow up in 2 days; hold a seat for 5 business days with the registration fee.
`,
  );

  add(
    `MOG weekly operating review notes (${date(-1)})`,
    'doc',
    notes,
    -1,
    -1,
    `# MOG weekly operating review — ${date(-1)}

Attendees: Avery Quinn, Priya Natarajan, Marcus Bell, Sam Okafor, Elena Sokolova

## Numbers
- Freight: 412 loads delivered, on-time 94.1% (goal 95%).
- Capital: $3.8M funded, pipeline $11.2M.
- Mortgage: 27 locks, 19 closings.
- Housing: occupancy 96.4%.

## Decisions
- Move the GrowthOS demo day invite list to the CRM segment "Q3 prospects".
- Approve two extra FleetWorks techs for the night shift.

## Action items
- [ ] Marcus: recovery plan for the Joliet lane on-time rate by Friday.
- [ ] Sam: refresh the Capital pipeline forecast.
- [ ] Avery: share the board pack draft.
`,
  );
  add(
    `Freight lane planning notes (${date(-7)})`,
    'doc',
    notes,
    -7,
    -6,
    `# Freight lane planning — ${date(-7)}

## Lanes reviewed
| Lane | Weekly loads | Rate per mile | Status |
|---|---|---|---|
| Chicago → Indianapolis | 38 | $2.41 | steady |
| Joliet → Columbus | 22 | $2.18 | late deliveries |
| Gary → Detroit | 15 | $2.56 | add a driver |

## Notes
- Lakeshore Logistics wants 6 more loads a week on Chicago → Indianapolis from next month.
- Detention on Joliet → Columbus is up; see the detention playbook.

## Next steps
- Marcus to price the Lakeshore volume.
- Dispatch to test a 05:00 departure for Joliet.
`,
  );
  add(
    `Capital pipeline stand-up notes (${date(-3)})`,
    'doc',
    notes,
    -3,
    -3,
    `# Capital pipeline stand-up — ${date(-3)}

## Deals
- **Lakeshore Logistics** equipment line, $1.2M: credit memo in review.
- **North Branch Bakery** working capital, $250k: term sheet sent.
- **Prairie Dental Group** expansion loan, $640k: waiting on tax returns.

## Risks
- Two deals depend on appraisals that are running 3 weeks late.

## Follow-ups
- Sam to chase the appraisal firm.
- Jordan to book the Lakeshore site visit.
`,
  );
  add(
    `Housing leasing sync notes (${date(-5)})`,
    'doc',
    notes,
    -5,
    -5,
    `# Housing leasing sync — ${date(-5)}

- Occupancy 96.4%; 9 move-outs and 11 move-ins this month.
- Riverside Commons: two units need turn work before the 1st.
- Renewal offers for next month go out on Monday with a 3% increase.

## Action items
- [ ] Leasing team: post the two Riverside units once turns are done.
- [ ] Priya: confirm the contractor for the Riverside turns.
`,
  );
  add(
    `Contracting site walk debrief (${date(-10)})`,
    'doc',
    notes,
    -10,
    -9,
    `# Contracting site walk debrief — ${date(-10)}

Site: FleetWorks south bay expansion

## Findings
- Slab pour is on schedule for next Thursday.
- Electrical rough-in is one week behind; the panel delivery slipped.
- Change order #4 (extra floor drains) approved at $18,400.

## Safety
- Two missing guardrails on the mezzanine were fixed during the walk.

## Next walk
Two weeks from today, with the FleetWorks shop manager.
`,
  );

  add(
    'Meridian Fleet brand voice guide',
    'doc',
    rootId,
    -200,
    -30,
    `# Meridian Fleet brand voice guide

We sound **plain, confident and helpful**.

## Principles
1. Say what the customer gets first.
2. Short sentences. One idea each.
3. Numbers beat adjectives: "delivered in 2 days", not "fast delivery".

## Names
- Always "Meridian Fleet" for the family of companies; each company by its full name on first use (Meridian Freight, Meridian Capital, GrowthOS…).
`,
  );
  add(
    'FleetWorks PM schedule',
    'data_table',
    rootId,
    -45,
    -1,
    `| Unit | Type | Last PM | Next PM due | Odometer |
|---|---|---|---|---|
| T-104 | Tractor | PM-A | ${date(6)} | 412,880 |
| T-117 | Tractor | PM-B | ${date(13)} | 298,140 |
| R-022 | Reefer trailer | DOT annual | ${date(20)} | — |
| T-131 | Tractor | PM-A | ${date(3)} | 176,502 |
`,
  );
  return { rootId, files };
}

const LINK_KIND: Record<DocFileType, string> = { doc: 'doc', folder: 'folder', data_table: 'table' };

interface SearchFilters {
  query?: string;
  created_by?: string;
  owner_id?: string;
  ancestor_ids?: string[];
  file_types?: string[];
  created_time_from?: number;
  created_time_to?: number;
  modified_time_from?: number;
  modified_time_to?: number;
}

/** Validates a search body the platform's way (400 code 300 with the offending fields). */
function readSearch(b: Record<string, unknown>): {
  filters: SearchFilters;
  pageSize?: number;
  token?: string;
} {
  const errors: { field: string; message: string }[] = [];
  const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
  const f: SearchFilters = {};
  const str = (k: 'query' | 'created_by' | 'owner_id', max = 256) => {
    if (!(k in b)) return;
    const v = b[k];
    if (typeof v === 'string' && v.length >= 1 && v.length <= max) f[k] = v;
    else bad(k);
  };
  str('query', 100);
  str('created_by');
  str('owner_id');
  if ('ancestor_ids' in b) {
    const v = b['ancestor_ids'];
    if (Array.isArray(v) && v.length >= 1 && v.length <= 20 && v.every((x) => typeof x === 'string'))
      f.ancestor_ids = v;
    else bad('ancestor_ids');
  }
  if ('file_types' in b) {
    const v = b['file_types'];
    if (
      Array.isArray(v) &&
      v.length >= 1 &&
      v.length <= 8 &&
      new Set(v).size === v.length &&
      v.every((x) => typeof x === 'string' && SEARCH_TYPES.includes(x))
    ) {
      f.file_types = v as string[];
    } else bad('file_types');
  }
  for (const k of [
    'created_time_from',
    'created_time_to',
    'modified_time_from',
    'modified_time_to',
  ] as const) {
    if (!(k in b)) continue;
    const v = b[k];
    const t =
      typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v)
        ? Date.parse(v)
        : NaN;
    if (Number.isNaN(t)) bad(k);
    else f[k] = t;
  }
  const created = f.created_time_from !== undefined || f.created_time_to !== undefined;
  const modified = f.modified_time_from !== undefined || f.modified_time_to !== undefined;
  if (created && modified) bad('modified_time_from');
  if (
    f.created_time_from !== undefined &&
    f.created_time_to !== undefined &&
    f.created_time_from > f.created_time_to
  )
    bad('created_time_from');
  if (
    f.modified_time_from !== undefined &&
    f.modified_time_to !== undefined &&
    f.modified_time_from > f.modified_time_to
  )
    bad('modified_time_from');
  let pageSize: number | undefined;
  if ('page_size' in b) {
    const v = b['page_size'];
    if (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 50) pageSize = v as number;
    else bad('page_size');
  }
  let token: string | undefined;
  if ('next_page_token' in b) {
    if (typeof b['next_page_token'] === 'string') token = b['next_page_token'];
    else bad('next_page_token');
  }
  if (errors.length) throw zerr.validation(errors);
  return {
    filters: f,
    ...(pageSize !== undefined ? { pageSize } : {}),
    ...(token !== undefined ? { token } : {}),
  };
}

export const docsModule = defineModule<DocsSlice>({
  name: 'docs',
  seed: seedDocs,
  register(ctx: SandboxContext) {
    const slice = () => ctx.slice<DocsSlice>('docs');
    const link = (f: DocFileRec) => `${ctx.baseUrl}/docs/${LINK_KIND[f.file_type]}/${f.file_id}`;
    const meta = (f: DocFileRec) => ({
      file_id: f.file_id,
      file_name: f.file_name,
      file_type: f.file_type,
      file_link: link(f),
      created_time: f.created_time,
      modified_time: f.modified_time,
    });
    const find = (id: string, message: string) => {
      const f = slice().files.find((x) => x.file_id === id);
      if (!f) throw notFound(message);
      return f;
    };
    /** `root`, the root id, or an existing file; undefined when nothing matches. */
    const parentOf = (id: string | undefined): string | DocFileRec | undefined => {
      const s = slice();
      if (id === undefined || id === 'root' || id === s.rootId) return s.rootId;
      return s.files.find((x) => x.file_id === id);
    };
    const descendants = (id: string): DocFileRec[] => {
      const out: DocFileRec[] = [];
      const walk = (pid: string) => {
        for (const f of slice().files.filter((x) => x.parent_id === pid)) {
          out.push(f);
          walk(f.file_id);
        }
      };
      walk(id);
      return out;
    };
    const newFileId = () => ctx.newId('alnum', 22) as string;
    /** Reads an optional parent for a new file: 404 when unknown, 400 for a folder under a doc. */
    const readParent = (raw: unknown, type: DocFileType): string => {
      if (raw !== undefined && typeof raw !== 'string')
        throw zerr.validation([{ field: 'parent_id', message: 'Invalid field.' }]);
      const parent = parentOf(raw);
      if (parent === undefined) throw notFound('File not found.');
      if (typeof parent === 'string') return parent;
      if (type === 'folder' && parent.file_type !== 'folder')
        throw zerr.validation([{ field: 'parent_id', message: 'Invalid field.' }]);
      if (parent.file_type === 'data_table')
        throw zerr.validation([{ field: 'parent_id', message: 'Invalid field.' }]);
      return parent.file_id;
    };
    const touch = (parentId: string) => {
      const parent = slice().files.find((x) => x.file_id === parentId);
      if (parent) parent.modified_time = zoomTime(ctx.now());
    };

    ctx.route({
      method: 'POST',
      url: '/docs/files',
      scopes: SCOPES.create,
      label: 'MEDIUM',
      handler: (req, reply) => {
        const b = body(req);
        const errors: { field: string; message: string }[] = [];
        const name = b['file_name'] ?? 'Untitled';
        if (typeof name !== 'string' || name.trim() === '' || name.length > 255)
          errors.push({ field: 'file_name', message: 'Invalid field.' });
        const type = b['file_type'] ?? 'doc';
        if (!FILE_TYPES.includes(type as DocFileType))
          errors.push({ field: 'file_type', message: 'Invalid field.' });
        if (b['user_id'] !== undefined && typeof b['user_id'] !== 'string')
          errors.push({ field: 'user_id', message: 'Invalid field.' });
        if (errors.length) throw zerr.validation(errors);
        if (typeof b['user_id'] === 'string') ctx.user(req, b['user_id']);
        const parentId = readParent(b['parent_id'], type as DocFileType);
        const now = zoomTime(ctx.now());
        const f: DocFileRec = {
          file_id: newFileId(),
          file_name: name as string,
          file_type: type as DocFileType,
          parent_id: parentId,
          owner_id: ctx.demo.id,
          created_time: now,
          modified_time: now,
          content: '',
        };
        slice().files.push(f);
        touch(parentId);
        ctx.changed();
        return reply.code(201).send({ file_id: f.file_id });
      },
    });

    ctx.route({
      method: 'POST',
      url: '/docs/import_content',
      scopes: SCOPES.import,
      label: 'HEAVY',
      handler: (req, reply) => {
        const b = body(req);
        const errors: { field: string; message: string }[] = [];
        const content = b['content'] ?? '';
        if (typeof content !== 'string') errors.push({ field: 'content', message: 'Invalid field.' });
        const rawName = b['file_name'];
        if (rawName !== undefined && (typeof rawName !== 'string' || rawName.length > 255))
          errors.push({ field: 'file_name', message: 'Invalid field.' });
        if (errors.length) throw zerr.validation(errors);
        const md = content as string;
        if (Buffer.byteLength(md, 'utf8') > IMPORT_LIMIT_BYTES)
          throw new ZoomError(400, 5109, 'The size of content exceeds the limit.');
        const parentId = readParent(b['parent_id'], 'doc');
        // Without a name the doc takes its first heading, or "Untitled" like the editor does.
        const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(md)?.[1];
        const name = typeof rawName === 'string' && rawName.trim() !== '' ? rawName : (heading ?? 'Untitled');
        const now = zoomTime(ctx.now());
        const f: DocFileRec = {
          file_id: newFileId(),
          file_name: name,
          file_type: 'doc',
          parent_id: parentId,
          owner_id: ctx.demo.id,
          created_time: now,
          modified_time: now,
          content: md,
        };
        slice().files.push(f);
        touch(parentId);
        ctx.changed();
        return reply.code(201).send({ file_id: f.file_id, file_link: link(f) });
      },
    });

    ctx.route({
      method: 'GET',
      url: '/docs/files/:fileId',
      scopes: SCOPES.get,
      label: 'LIGHT',
      handler: (req) => meta(find(p(req, 'fileId'), 'File Not Found/Deleted.')),
    });

    ctx.route({
      method: 'GET',
      url: '/docs/files/:fileId/content',
      scopes: SCOPES.content,
      label: 'HEAVY',
      handler: (req) => {
        const f = find(p(req, 'fileId'), 'File not found or deleted.');
        if (f.file_type === 'folder') throw zerr.badParam('fileId');
        return { file_name: f.file_name, file_content: f.content };
      },
    });

    ctx.route({
      method: 'PATCH',
      url: '/docs/files/:fileId',
      scopes: SCOPES.update,
      label: 'MEDIUM',
      handler: (req, reply) => {
        const b = body(req);
        const name = b['file_name'];
        if (typeof name !== 'string' || name.trim() === '' || name.length > 255)
          throw zerr.validation([{ field: 'file_name', message: 'Invalid field.' }]);
        const f = find(p(req, 'fileId'), 'File Not Found/Deleted.');
        f.file_name = name;
        f.modified_time = zoomTime(ctx.now());
        ctx.changed();
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/docs/files/:fileId',
      scopes: SCOPES.delete,
      label: 'MEDIUM',
      handler: (req, reply) => {
        const f = find(p(req, 'fileId'), 'File Not Found/Deleted.');
        // Deleting a folder takes everything under it along.
        const gone = new Set([f.file_id, ...descendants(f.file_id).map((x) => x.file_id)]);
        const s = slice();
        s.files = s.files.filter((x) => !gone.has(x.file_id));
        touch(f.parent_id);
        ctx.changed();
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'GET',
      url: '/docs/files/:fileId/children',
      scopes: SCOPES.children,
      label: 'MEDIUM',
      handler: (req) => {
        const parent = parentOf(p(req, 'fileId'));
        if (parent === undefined) throw notFound('Parent not found.');
        const pid = typeof parent === 'string' ? parent : parent.file_id;
        // Folders first, then the most recently modified.
        const items = slice()
          .files.filter((x) => x.parent_id === pid)
          .sort(
            (a, b) =>
              Number(b.file_type === 'folder') - Number(a.file_type === 'folder') ||
              b.modified_time.localeCompare(a.modified_time) ||
              a.file_id.localeCompare(b.file_id),
          );
        const page = ctx.paginate(req, items, { defaultSize: 10, maxSize: 50 });
        return { files: page.items.map(meta), next_page_token: page.nextPageToken };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/docs/users/:userId/root',
      scopes: SCOPES.root,
      label: 'LIGHT',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        return { root_id: slice().rootId };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/docs/file_search',
      scopes: SCOPES.search,
      label: 'LIGHT',
      handler: (req: SandboxRequest) => {
        const { filters: f, pageSize, token } = readSearch(body(req));
        const s = slice();
        let within: Set<string> | undefined;
        if (f.ancestor_ids) {
          within = new Set();
          for (const a of f.ancestor_ids) {
            const parent = parentOf(a);
            if (parent === undefined)
              throw notFound(
                'The specified ancestor folder or shared folder was not found or is unavailable.',
              );
            for (const d of descendants(typeof parent === 'string' ? parent : parent.file_id))
              within.add(d.file_id);
          }
        }
        const needle = f.query?.toLowerCase();
        const me = ctx.demo;
        const isMe = (id: string) => id === 'me' || id === me.id || id.toLowerCase() === me.email;
        const items = s.files
          .filter((x) => x.file_type !== 'folder')
          .filter((x) => !f.file_types || f.file_types.includes(x.file_type))
          .filter((x) => !within || within.has(x.file_id))
          .filter((x) => !f.created_by || (isMe(f.created_by) && x.owner_id === me.id))
          .filter((x) => !f.owner_id || (isMe(f.owner_id) && x.owner_id === me.id))
          .filter(
            (x) =>
              !needle ||
              x.file_name.toLowerCase().includes(needle) ||
              x.content.toLowerCase().includes(needle),
          )
          .filter((x) => {
            const c = Date.parse(x.created_time);
            const m = Date.parse(x.modified_time);
            return (
              (f.created_time_from === undefined || c >= f.created_time_from) &&
              (f.created_time_to === undefined || c <= f.created_time_to) &&
              (f.modified_time_from === undefined || m >= f.modified_time_from) &&
              (f.modified_time_to === undefined || m <= f.modified_time_to)
            );
          })
          // Title matches first, then the most recently modified.
          .sort(
            (a, b) =>
              Number(!!needle && b.file_name.toLowerCase().includes(needle)) -
                Number(!!needle && a.file_name.toLowerCase().includes(needle)) ||
              b.modified_time.localeCompare(a.modified_time) ||
              a.file_id.localeCompare(b.file_id),
          );
        // The token travels in the body; paging reuses the platform's token store with the filters
        // as the token's signature, so changing a filter while paging is a 400 as documented.
        const query: Record<string, string> = { filters: JSON.stringify(f) };
        if (pageSize !== undefined) query['page_size'] = String(pageSize);
        if (token !== undefined) query['next_page_token'] = token;
        const pageReq = { query, params: {}, routeOptions: req.routeOptions } as unknown as FastifyRequest;
        const page = ctx.paginate(pageReq, items, { defaultSize: 10, maxSize: 50 });
        return {
          files: page.items.map((x) => ({
            file_id: x.file_id,
            file_name: x.file_name,
            file_link: link(x),
            file_type: x.file_type,
          })),
          next_page_token: page.nextPageToken,
        };
      },
    });
  },
});
