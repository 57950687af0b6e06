/** Seed scripts for the business-line meetings: marketing funnel, freight lanes, lending pipeline, mortgage locks, housing. */
import { HOST, num, type ScriptEntry } from './script.js';

export const BUSINESS_SCRIPTS: ScriptEntry[] = [
  [
    /growthos|funnel|marketing/i,
    (v) => {
      const leads = v.int(900, 1600);
      const lift = v.int(6, 18);
      const conv = v.int(9, 15);
      const budget = v.pick([4000, 5000, 6500, 8000]);
      return {
        people: [HOST, 'Jordan Reyes', 'Alex Chen'],
        lines: [
          [0, 'Let us start with the funnel. Alex, where did we land on leads last week?'],
          [
            2,
            `We closed the week at ${num(leads)} marketing-qualified leads, up ${lift} percent. Most of the lift came from the Meridian Mortgage refinance landing page.`,
          ],
          [
            1,
            `Lead to booked call is still the weak spot, about ${conv} percent. Prospects drop off on the long intake form.`,
          ],
          [0, 'Then let us cut the form to three fields and run it against the current version.'],
          [
            2,
            `Agreed. I also want to move ${num(budget)} dollars from display into search for the Meridian Freight driver recruiting campaign.`,
          ],
          [1, 'Search costs us roughly half as much per lead as display, so that shift makes sense.'],
          [0, 'Approved. We review the A/B results at next week’s funnel review.'],
        ],
        chat: [
          [2, 'Funnel dashboard: GrowthOS workspace > Funnel > Weekly'],
          [1, 'Refinance landing page copy is in the shared drive.'],
        ],
        overview: `GrowthOS reviewed the marketing funnel: ${num(leads)} MQLs (up ${lift}%), with lead-to-call conversion at ${conv}% as the bottleneck.`,
        details: [
          [
            'Funnel performance',
            `Leads grew ${lift}% on the Meridian Mortgage refinance page; lead-to-call conversion stays at ${conv}% because of the long intake form.`,
          ],
          [
            'Decisions',
            `Test a three-field form against the current one; move $${num(budget)} from display to search for freight driver recruiting.`,
          ],
        ],
        next: [
          'Alex Chen to launch the three-field form A/B test',
          `Jordan Reyes to shift $${num(budget)} from display to search`,
          'Avery Quinn to review the test results at the next funnel review',
        ],
      };
    },
  ],
  [
    /freight|lane|dispatch/i,
    (v) => {
      const loads = v.int(38, 64);
      const empty = v.int(9, 17);
      const rate = v.pick(['2.15', '2.30', '2.45']);
      const ontime = v.int(88, 96);
      return {
        people: [HOST, 'Marcus Bell', 'Dana Garcia'],
        lines: [
          [0, 'Marcus, walk us through the lanes.'],
          [
            1,
            `Dallas to Memphis is the busiest lane, ${loads} loads last week, but ${empty} of them came back empty.`,
          ],
          [2, `I can get a backhaul contract with two Memphis shippers at ${rate} dollars per mile.`],
          [0, 'What is our on-time rate on that lane?'],
          [1, `${ontime} percent. The misses were dock delays at the Memphis cross-dock.`],
          [0, 'Take the backhaul contract, and ask the cross-dock for fixed appointment windows.'],
          [2, 'I will also reprice the Houston lane; the fuel surcharge lags diesel by two weeks.'],
          [0, 'Good. Marcus, add two drivers to the Dallas pool before the peak.'],
        ],
        chat: [
          [2, `Backhaul quote: ${rate}/mile, 12-month term, 30-day out`],
          [1, 'Lane sheet updated in the dispatch folder.'],
        ],
        overview: `Meridian Freight planned its lanes: Dallas–Memphis ran ${loads} loads with ${empty} empty backhauls and ${ontime}% on time.`,
        details: [
          [
            'Lane performance',
            `Dallas–Memphis: ${loads} loads, ${empty} empty returns, ${ontime}% on time; misses came from Memphis cross-dock delays.`,
          ],
          [
            'Decisions',
            `Sign a backhaul contract at $${rate}/mile with two Memphis shippers; reprice the Houston lane fuel surcharge.`,
          ],
        ],
        next: [
          'Dana Garcia to sign the Memphis backhaul contract',
          'Marcus Bell to add two drivers to the Dallas pool',
          'Dana Garcia to reprice the Houston fuel surcharge',
        ],
      };
    },
  ],
  [
    /capital|pipeline|lending/i,
    (v) => {
      const amount = (v.int(62, 118) / 10).toFixed(1);
      const deals = v.int(14, 26);
      const days = v.int(4, 7);
      return {
        people: [HOST, 'Sam Okafor', 'Robin Diaz'],
        lines: [
          [0, 'Quick pipeline round. Sam?'],
          [
            1,
            `We are at ${amount} million dollars across ${deals} equipment loans; three are waiting on tax returns.`,
          ],
          [2, `Underwriting turnaround is ${days} days. Our goal is three.`],
          [1, 'FleetWorks referred two owner-operators who need tractor financing this month.'],
          [
            0,
            'Fast-track the FleetWorks referrals; they come with maintenance history, which lowers our risk.',
          ],
          [
            2,
            'The Lakeshore trailer lease goes over our concentration limit. I recommend we syndicate half of it.',
          ],
          [0, 'Agreed, syndicate half of Lakeshore. Robin, what would get turnaround to three days?'],
          [2, 'Pulling bank statements automatically instead of by email would save about a day.'],
        ],
        chat: [
          [1, 'Pipeline report is in the Capital shared folder, tab "Week"'],
          [2, 'Concentration limit memo attached.'],
        ],
        overview: `Meridian Capital's pipeline stands at $${amount}M across ${deals} equipment loans; underwriting takes ${days} days against a three-day goal.`,
        details: [
          [
            'Pipeline',
            `$${amount}M across ${deals} loans; three files are waiting on tax returns; two FleetWorks owner-operator referrals arrived.`,
          ],
          [
            'Risk',
            'The Lakeshore trailer lease exceeds the concentration limit; half of it will be syndicated.',
          ],
        ],
        next: [
          'Sam Okafor to fast-track the two FleetWorks referrals',
          'Robin Diaz to find a syndication partner for half of the Lakeshore lease',
          'Robin Diaz to scope automatic bank statement retrieval',
        ],
      };
    },
  ],
  [
    /mortgage|rate-lock|rate lock/i,
    (v) => {
      const locks = v.int(18, 34);
      const expiring = v.int(3, 7);
      const bps = v.pick([12, 15, 20]);
      return {
        people: [HOST, 'Sam Okafor', 'Casey Patel'],
        lines: [
          [1, `We locked ${locks} loans this week, and ${expiring} locks expire in the next ten days.`],
          [2, 'Two of those are waiting on appraisals that are past due.'],
          [1, `Rates moved up an eighth yesterday, and a 15-day extension costs ${bps} basis points.`],
          [
            0,
            'We cover extensions when the delay is ours, like the appraisals. The borrower pays when documents are late on their side.',
          ],
          [2, 'I will call the appraisal management company today and escalate both orders.'],
          [1, 'Also, Meridian Housing tenants keep asking about first-time buyer programs.'],
          [0, 'Let us run a joint first-time buyer workshop with Housing next month.'],
        ],
        chat: [
          [2, 'Appraisal orders #4471 and #4490 are the late ones'],
          [1, 'Rate sheet from this morning is in the lock desk channel.'],
        ],
        overview: `Meridian Mortgage locked ${locks} loans; ${expiring} locks expire within ten days, two of them held up by late appraisals.`,
        details: [
          [
            'Locks',
            `${locks} new locks; ${expiring} expiring soon; extensions cost ${bps} bps after rates rose an eighth.`,
          ],
          [
            'Policy',
            'Meridian covers extensions caused by its own delays (appraisals); borrowers pay when their documents are late.',
          ],
        ],
        next: [
          'Casey Patel to escalate the two late appraisals',
          'Sam Okafor to plan a first-time buyer workshop with Meridian Housing',
        ],
      };
    },
  ],
  [
    /housing|leasing|tenant/i,
    (v) => {
      const occ = v.int(91, 97);
      const vacant = v.int(6, 12);
      const renew = v.int(58, 71);
      const turn = v.int(12, 17);
      return {
        people: [HOST, 'Taylor Lopez', 'Jamie Smith'],
        lines: [
          [1, `Occupancy is ${occ} percent across the portfolio. Riverside has ${vacant} vacant units.`],
          [2, 'Four of those are in make-ready; Meridian Contracting is doing the flooring this week.'],
          [1, `Our renewal rate is ${renew} percent. Most people who leave mention the parking.`],
          [0, 'Let us run a referral credit at Riverside and get a quote for the extra parking lot.'],
          [2, `Turn time averages ${turn} days. The target is ten.`],
          [0, 'Ask Contracting to put Riverside first on their schedule.'],
        ],
        chat: [
          [1, 'Vacancy list: Riverside 2B, 3A, 3D, 4C and others in the leasing tracker'],
          [2, 'Flooring crew confirmed for Wednesday.'],
        ],
        overview: `Meridian Housing is at ${occ}% occupancy; Riverside has ${vacant} vacancies and turn time is ${turn} days against a ten-day target.`,
        details: [
          [
            'Occupancy',
            `${occ}% occupied; ${vacant} Riverside units vacant, four in make-ready; renewals at ${renew}%, parking is the main complaint.`,
          ],
          [
            'Decisions',
            'Offer a referral credit at Riverside; get a quote for extra parking; Contracting prioritizes Riverside turns.',
          ],
        ],
        next: [
          'Taylor Lopez to launch the Riverside referral credit',
          'Jamie Smith to get Riverside turns to the top of Contracting’s schedule',
          'Avery Quinn to request a parking lot quote',
        ],
      };
    },
  ],
];
