/**
 * Revenue accelerator content analysis: the sections of a finished conversation (summary,
 * topics, next steps, engaging questions, indicators, smart chapters, deal memo, playbooks),
 * written from the seed's lines for the deal's business, each at its moment in the call.
 */
import type { EmulatorContext } from '../../context.js';
import { dealOf, person, slice, summaryOf } from './lookups.js';
import type { Business, ConversationRec, DealRec } from './records.js';
import { MEMO, NEXT_STEPS, QUESTIONS, TOPICS, plusSec } from './seed.js';

/** One analysed line of the conversation, at `offset` seconds in. */
const line = (
  ctx: EmulatorContext,
  c: ConversationRec,
  offset: number,
  speaker: 'rep' | 'customer',
  text: string,
  extra: Record<string, string> = {},
) => {
  const who = speaker === 'rep' ? person(ctx, c.host) : undefined;
  const customer = c.customers[0];
  const at = Math.min(offset, Math.max(0, c.duration_sec - 20));
  return {
    ...(who ? { user_id: who.id } : {}),
    display_name: who?.name ?? customer?.name ?? 'Customer',
    text,
    ...extra,
    start_time: plusSec(c.start_time, at),
    end_time: plusSec(c.start_time, at + 15),
  };
};

/** A finished conversation with what every section of its analysis reads. */
interface Analysed {
  ctx: EmulatorContext;
  c: ConversationRec;
  business: Business;
  d: DealRec | undefined;
  span: number;
}

function chapterSummaryOf({ ctx, c }: Analysed): unknown {
  return summaryOf(ctx, c);
}

function topicsOf({ ctx, c, business, span }: Analysed): unknown {
  return c.topics.map((id, i) => {
    const t = TOPICS[id];
    return {
      section: [
        line(
          ctx,
          c,
          Math.round((span * (i + 1)) / (c.topics.length + 2)),
          i % 2 ? 'customer' : 'rep',
          t?.line[business] ?? id,
          { label: t?.label ?? id, key_word: t?.key_word ?? id, marked_by: 'nlp' },
        ),
      ],
    };
  });
}

function nextStepsOf({ ctx, c, business, span }: Analysed): unknown {
  return [
    {
      section: NEXT_STEPS[business].slice(0, c.next_steps).map((text, i) =>
        line(ctx, c, span - 240 + i * 60, 'rep', text, {
          utterance: 'next steps',
          label: 'next steps',
          marked_by: 'aic',
        }),
      ),
    },
  ];
}

function questionsOf({ ctx, c, business }: Analysed): unknown {
  return [
    {
      section: QUESTIONS[business].slice(0, c.questions).map((text, i) =>
        line(ctx, c, 180 + i * 420, 'rep', text, {
          utterance: text,
          label: 'engaging question',
          marked_by: 'nlp',
        }),
      ),
    },
  ];
}

function indicatorsOf({ ctx, c, business }: Analysed): unknown {
  return c.indicators.map((id, i) => {
    const ind = slice(ctx).indicators.find((x) => x.id === id);
    const topicLine = Object.values(TOPICS).find((t) => t.key_word === ind?.key_word)?.line[business];
    return {
      section: [
        line(
          ctx,
          c,
          300 + i * 400,
          'customer',
          topicLine ?? 'I can sign off on this myself once we agree on the terms.',
          {
            indicator_name: ind?.name ?? '',
            indicator_id: id,
            key_word: ind?.key_word ?? '',
            marked_by: 'es',
          },
        ),
      ],
    };
  });
}

function chaptersOf({ ctx, c, business, span }: Analysed): unknown {
  const cut = [0, 0.15, 0.6, 0.85, 1].map((f) => Math.round(span * f));
  const titles = [
    'Introductions',
    c.topics.map((t) => TOPICS[t]?.label ?? t).join(' and '),
    'Questions and concerns',
    'Next steps',
  ];
  return titles.map((title, i) => ({
    title,
    summary:
      i === 3
        ? NEXT_STEPS[business].slice(0, c.next_steps).join(' ')
        : i === 0
          ? `${person(ctx, c.host).name} opened the call and confirmed the agenda.`
          : `The group discussed ${title.toLowerCase()}.`,
    category: i === 0 ? 'Introduction' : i === 3 ? 'Wrap-up' : 'Discussion',
    start_time: plusSec(c.start_time, cut[i] ?? 0),
    end_time: plusSec(c.start_time, cut[i + 1] ?? span),
  }));
}

function dealMemoOf({ business }: Analysed): unknown {
  return {
    potential_wins: MEMO[business].wins.map(([factor, explanation]) => ({ factor, explanation })),
    potential_concerns: MEMO[business].concerns.map(([factor, explanation]) => ({
      factor,
      explanation,
    })),
  };
}

function playbooksOf({ c, business, d }: Analysed): unknown {
  const steps = NEXT_STEPS[business];
  return [
    {
      playbook_id: `${c.meeting_uuid.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}MEDDPICC`,
      playbook_name: 'MEDDPICC',
      elements: [
        [
          'Metrics',
          d
            ? `What success means for ${d.account}: ${TOPICS['user_requirements']?.line[business] ?? ''}`
            : 'Not discussed yet.',
        ],
        ['Decision process', steps[0] ?? ''],
      ].map(([name = '', summary = ''], i) => ({
        element_id: `${c.meeting_uuid.replace(/[^A-Za-z0-9]/g, '').slice(0, 14)}E${i}`,
        element_name: name,
        answer: {
          summaries: [summary],
          sources: [
            {
              item_id: String(12 + i),
              speaker_name: c.customers[0]?.name ?? 'Customer',
              start_time: '00:02:59.250',
              end_time: '00:03:07.126',
              time_s: 179,
              text: summary,
            },
          ],
        },
      })),
    },
  ];
}

/** The sections in the platform's order: analysis type, field, and what fills it. */
const SECTIONS: [type: string, key: string, fill: (a: Analysed) => unknown, needsDeal: boolean][] = [
  ['smartChapters', 'summary', chapterSummaryOf, false],
  ['topics', 'topics', topicsOf, false],
  ['nextSteps', 'next_steps', nextStepsOf, false],
  ['engagingQuestions', 'good_questions', questionsOf, false],
  ['indicators', 'indicators', indicatorsOf, false],
  ['smartChapters', 'smart_chapters', chaptersOf, false],
  ['dealMemo', 'deal_memo', dealMemoOf, true],
  ['playbooks', 'playbooks', playbooksOf, false],
];

/** The content analysis of a conversation for one analysis type (or `all`). */
export function analysisOf(ctx: EmulatorContext, c: ConversationRec, type: string): Record<string, unknown> {
  const d = dealOf(ctx, c);
  const a: Analysed = { ctx, c, business: d?.business ?? 'growthos', d, span: c.duration_sec };
  const out: Record<string, unknown> = { next_page_token: '', page_size: 30 };
  for (const [t, key, fill, needsDeal] of SECTIONS)
    if ((type === 'all' || type === t) && (!needsDeal || d)) out[key] = fill(a);
  return out;
}
