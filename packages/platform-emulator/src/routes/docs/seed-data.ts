/**
 * The Docs emulator's seeded files, in the order they are made (each draws its id and times from
 * the seed's stream, so the order is part of the data): playbooks, meeting notes, a brand guide and
 * a data table. A text that names a date takes the seed's `date(days)`.
 */
import type { DocFileType } from './records.js';

/** A text, or one that names dates relative to the seed's clock. */
export type SeedText = string | ((date: (days: number) => string) => string);

export interface DocSeed {
  name: SeedText;
  type: DocFileType;
  /** The folder it is in: My Docs' root or one of the two seeded folders. */
  parent: 'root' | 'playbooks' | 'notes';
  /** Days from the seed's anchor. */
  created: number;
  modified: number;
  content: SeedText;
}

export const DOC_FILES: DocSeed[] = [
  {
    name: 'GrowthOS inbound lead-response playbook',
    type: 'doc',
    parent: 'playbooks',
    created: -120,
    modified: -9,
    content: `# GrowthOS inbound lead-response playbook

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
  },
  {
    name: 'Meridian Freight detention and layover playbook',
    type: 'doc',
    parent: 'playbooks',
    created: -110,
    modified: -14,
    content: `# Meridian Freight detention and layover playbook

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
  },
  {
    name: 'Meridian Mortgage rate-lock playbook',
    type: 'doc',
    parent: 'playbooks',
    created: -95,
    modified: -4,
    content: `# Meridian Mortgage rate-lock playbook

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
  },
  {
    name: 'FleetWorks preventive-maintenance intake playbook',
    type: 'doc',
    parent: 'playbooks',
    created: -80,
    modified: -20,
    content: `# FleetWorks preventive-maintenance intake playbook

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
  },
  {
    name: 'Meridian Early Learning enrollment tour playbook',
    type: 'doc',
    parent: 'playbooks',
    created: -60,
    modified: -2,
    content: `# Meridian Early Learning enrollment tour playbook

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
  },
  {
    name: (date) => `MOG weekly operating review notes (${date(-1)})`,
    type: 'doc',
    parent: 'notes',
    created: -1,
    modified: -1,
    content: (date) => `# MOG weekly operating review — ${date(-1)}

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
  },
  {
    name: (date) => `Freight lane planning notes (${date(-7)})`,
    type: 'doc',
    parent: 'notes',
    created: -7,
    modified: -6,
    content: (date) => `# Freight lane planning — ${date(-7)}

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
  },
  {
    name: (date) => `Capital pipeline stand-up notes (${date(-3)})`,
    type: 'doc',
    parent: 'notes',
    created: -3,
    modified: -3,
    content: (date) => `# Capital pipeline stand-up — ${date(-3)}

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
  },
  {
    name: (date) => `Housing leasing sync notes (${date(-5)})`,
    type: 'doc',
    parent: 'notes',
    created: -5,
    modified: -5,
    content: (date) => `# Housing leasing sync — ${date(-5)}

- Occupancy 96.4%; 9 move-outs and 11 move-ins this month.
- Riverside Commons: two units need turn work before the 1st.
- Renewal offers for next month go out on Monday with a 3% increase.

## Action items
- [ ] Leasing team: post the two Riverside units once turns are done.
- [ ] Priya: confirm the contractor for the Riverside turns.
`,
  },
  {
    name: (date) => `Contracting site walk debrief (${date(-10)})`,
    type: 'doc',
    parent: 'notes',
    created: -10,
    modified: -9,
    content: (date) => `# Contracting site walk debrief — ${date(-10)}

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
  },
  {
    name: 'Meridian Fleet brand voice guide',
    type: 'doc',
    parent: 'root',
    created: -200,
    modified: -30,
    content: `# Meridian Fleet brand voice guide

We sound **plain, confident and helpful**.

## Principles
1. Say what the customer gets first.
2. Short sentences. One idea each.
3. Numbers beat adjectives: "delivered in 2 days", not "fast delivery".

## Names
- Always "Meridian Fleet" for the family of companies; each company by its full name on first use (Meridian Freight, Meridian Capital, GrowthOS…).
`,
  },
  {
    name: 'FleetWorks PM schedule',
    type: 'data_table',
    parent: 'root',
    created: -45,
    modified: -1,
    content: (date) => `| Unit | Type | Last PM | Next PM due | Odometer |
|---|---|---|---|---|
| T-104 | Tractor | PM-A | ${date(6)} | 412,880 |
| T-117 | Tractor | PM-B | ${date(13)} | 298,140 |
| R-022 | Reefer trailer | DOT annual | ${date(20)} | — |
| T-131 | Tractor | PM-A | ${date(3)} | 176,502 |
`,
  },
];
