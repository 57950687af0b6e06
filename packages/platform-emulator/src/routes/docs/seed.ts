/**
 * The Docs emulator's seed: the demo user's My Docs tree (two folders of playbooks and meeting
 * notes, plus a brand guide and a data table), with dates relative to the seed's clock.
 */
import type { SeedContext } from '../../context.js';
import type { DocFileRec, DocFileType, DocsSlice } from './records.js';

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function seedDocs(s: SeedContext): DocsSlice {
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
