/**
 * The body of a chat message send, checked as the platform checks it: every bad field listed in
 * one validation error (in the platform's field order), mentions resolved to a contact's email.
 */
import { zerr } from '../../context.js';
import type { AtItem, Person, RichText } from './types.js';

/** The formats a rich-text range may take. */
const FORMATS = [
  'Bold',
  'Italic',
  'Strikethrough',
  'BulletedList',
  'NumberedList',
  'Underline',
  'FontSize',
  'FontColor',
  'BackgroundColor',
  'LeftIndent',
  'Paragraph',
  'Quote',
  'AddLink',
];

export interface SendInput {
  /** The body's string field `k`, if it is one. */
  str: (k: string) => string | undefined;
  message: string | undefined;
  fileIds: unknown;
  atItems: AtItem[];
  rich: RichText[];
  cardsRaw: unknown;
}

type Bad = (field: string) => void;
const record = (v: unknown) => (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;

/** The send's fields; a 400 listing the invalid ones when any is. */
export function parseSendBody(b: Record<string, unknown>, findContact: (value: string) => Person): SendInput {
  const errors: { field: string; message: string }[] = [];
  const bad: Bad = (field) => errors.push({ field, message: 'Invalid field.' });
  const str = (k: string) => {
    const v = b[k];
    return typeof v === 'string' ? v : undefined;
  };
  const message = str('message');
  if (message === undefined || message.length > 1024) bad('message');
  for (const k of ['to_contact', 'to_channel', 'reply_main_message_id', 'scheduled_time'])
    if (k in b && typeof b[k] !== 'string') bad(k);
  const fileIds = b['file_ids'];
  if (
    fileIds !== undefined &&
    (!Array.isArray(fileIds) || fileIds.length > 6 || fileIds.some((x) => typeof x !== 'string'))
  )
    bad('file_ids');
  const atItems = parseAtItems(b['at_items'], bad, findContact);
  const rich = parseRichText(b['rich_text'], bad);
  const cardsRaw = b['interactive_cards'];
  if (
    cardsRaw !== undefined &&
    (!Array.isArray(cardsRaw) ||
      cardsRaw.some(
        (c) =>
          typeof c !== 'object' ||
          c === null ||
          typeof (c as Record<string, unknown>)['card_json'] !== 'string',
      ))
  )
    bad('interactive_cards');
  if (errors.length) throw zerr.validation(errors);
  return { str, message, fileIds, atItems, rich, cardsRaw };
}

function parseAtItems(atRaw: unknown, bad: Bad, findContact: (value: string) => Person): AtItem[] {
  const atItems: AtItem[] = [];
  if (atRaw === undefined) return atItems;
  if (!Array.isArray(atRaw)) {
    bad('at_items');
    return atItems;
  }
  for (const a of atRaw as unknown[]) {
    const o = record(a);
    const type = o['at_type'];
    const sp = o['start_position'];
    const ep = o['end_position'];
    if (
      (type !== 1 && type !== 2) ||
      !Number.isInteger(sp) ||
      !Number.isInteger(ep) ||
      (type === 1 && typeof o['at_contact'] !== 'string')
    ) {
      bad('at_items');
      break;
    }
    atItems.push({
      at_type: type,
      ...(type === 1 ? { at_contact: findContact(o['at_contact'] as string).email } : {}),
      start_position: sp as number,
      end_position: ep as number,
    });
  }
  return atItems;
}

function parseRichText(richRaw: unknown, bad: Bad): RichText[] {
  const rich: RichText[] = [];
  if (richRaw === undefined) return rich;
  if (!Array.isArray(richRaw)) {
    bad('rich_text');
    return rich;
  }
  for (const r of richRaw as unknown[]) {
    const o = record(r);
    if (
      !Number.isInteger(o['start_position']) ||
      !Number.isInteger(o['end_position']) ||
      !FORMATS.includes(o['format_type'] as string)
    ) {
      bad('rich_text');
      break;
    }
    rich.push({
      start_position: o['start_position'] as number,
      end_position: o['end_position'] as number,
      format_type: o['format_type'] as string,
      ...(typeof o['format_attr'] === 'string' ? { format_attr: o['format_attr'] } : {}),
    });
  }
  return rich;
}
