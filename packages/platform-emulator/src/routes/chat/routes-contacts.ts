/** Chat channel and contact routes: the user's channels, one channel, contacts and the company directory search. */
import { p, q, zerr, ZoomError, type EmulatorContext } from '../../context.js';
import type { UsersSlice } from '../users.js';
import { SCOPES, truthy } from './scopes.js';
import type { ChatShapes } from './shapes.js';
import type { Presence } from './types.js';

/** Registers the routes on the context; `h` holds the shared lookups and mappers. */
export function registerContactRoutes(ctx: EmulatorContext, h: ChatShapes): void {
  getChannels(ctx, h);
  getChannel(ctx, h);
  getContacts(ctx, h);
  getContact(ctx, h);
  getDirectory(ctx, h);
}

function getChannels(ctx: EmulatorContext, h: ChatShapes): void {
  ctx.route({
    method: 'GET',
    url: '/chat/users/:userId/channels',
    scopes: SCOPES.listChannels,
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      const items = h.slice().channels.filter((c) => c.members.includes(ctx.demo.email));
      const page = ctx.paginate(req, items, { defaultSize: 10, maxSize: 1000 });
      return {
        channels: page.items.map((c) => h.channelObject(c, false)),
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
        total_records: page.totalRecords,
      };
    },
  });
}

function getChannel(ctx: EmulatorContext, h: ChatShapes): void {
  ctx.route({
    method: 'GET',
    url: '/chat/channels/:channelId',
    scopes: SCOPES.getChannel,
    label: 'MEDIUM',
    handler: (req) => h.channelObject(h.findChannel(p(req, 'channelId')), true),
  });
}

function getContacts(ctx: EmulatorContext, h: ChatShapes): void {
  ctx.route({
    method: 'GET',
    url: '/chat/users/me/contacts',
    scopes: SCOPES.contacts,
    label: 'MEDIUM',
    handler: (req) => {
      const type = q(req, 'type') ?? 'company';
      if (type !== 'company' && type !== 'external') throw zerr.badParam('type');
      const items = h.slice().contacts.filter((c) => c.kind === type);
      const page = ctx.paginate(req, items, { defaultSize: 10, maxSize: 50 });
      return {
        contacts: page.items.map((c) => ({
          id: h.userIdOf(c),
          member_id: c.member_id,
          email: c.email,
          first_name: c.first_name,
          last_name: c.last_name,
        })),
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
      };
    },
  });
}

function getContact(ctx: EmulatorContext, h: ChatShapes): void {
  ctx.route({
    method: 'GET',
    url: '/chat/users/me/contacts/:identifier',
    scopes: SCOPES.contact,
    label: 'MEDIUM',
    handler: (req) => {
      const ident = p(req, 'identifier');
      const c = h
        .slice()
        .contacts.find(
          (x) =>
            x.email === ident.toLowerCase() ||
            x.member_id === ident ||
            (h.userIdOf(x) !== '' && h.userIdOf(x) === ident),
        );
      if (!c) throw new ZoomError(404, 1001, `User does not exist: ${ident}.`);
      return {
        id: h.userIdOf(c),
        member_id: c.member_id,
        email: c.email,
        first_name: c.first_name,
        last_name: c.last_name,
        phone_number: c.phone,
        phone_numbers: [
          { code: '+1', country: 'US', label: 'Office' as const, number: c.phone, verified: true },
        ],
        ...(c.kind === 'company' ? { direct_numbers: [c.direct_number], extension_number: c.extension } : {}),
        ...(truthy(q(req, 'query_presence_status')) ? { presence_status: c.presence } : {}),
      };
    },
  });
}

function getDirectory(ctx: EmulatorContext, h: ChatShapes): void {
  ctx.route({
    method: 'GET',
    url: '/contacts',
    scopes: SCOPES.search,
    label: 'MEDIUM',
    handler: (req) => {
      const key = q(req, 'search_key');
      if (key === undefined || key.trim() === '')
        throw zerr.validation([{ field: 'search_key', message: 'Invalid field.' }]);
      const typesRaw = q(req, 'contact_types') ?? '1';
      const types = typesRaw.split(',').map((x) => Number(x.trim()));
      if (types.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) throw zerr.badParam('contact_types');
      const status = q(req, 'user_status');
      if (status !== undefined && status !== 'active' && status !== 'inactive')
        throw zerr.badParam('user_status');
      const presence = truthy(q(req, 'query_presence_status'));
      const k = key.trim().toLowerCase();
      const people = directoryPeople(ctx, h);
      const matches = (...fields: string[]) => fields.some((f) => f.toLowerCase().includes(k));
      const items = [
        ...(types.includes(1) && status !== 'inactive'
          ? people
              .filter((x) => matches(x.first_name, x.last_name, `${x.first_name} ${x.last_name}`, x.email))
              .map((x) => personContact(x, presence))
          : []),
        ...(types.includes(8)
          ? h
              .slice()
              .rooms.filter((r) => matches(r.name))
              .map((r) => ({
                member_id: r.member_id,
                display_name: r.name,
                contact_type: 8,
                location: r.location,
                ...(presence ? { presence_status: 'Available' } : {}),
              }))
          : []),
      ];
      const page = ctx.paginate(req, items, { defaultSize: 1, maxSize: 25 });
      return { contacts: page.items, next_page_token: page.nextPageToken, page_size: page.pageSize };
    },
  });
}

type DirectoryPerson = ReturnType<typeof directoryPeople>[number];

/** The demo user and the company contacts, with their directory fields (the users module's where it has them). */
function directoryPeople(ctx: EmulatorContext, h: ChatShapes) {
  const users = ctx.slice<UsersSlice | undefined>('users');
  const d = h.demoPerson();
  return [
    {
      id: d.userId,
      member_id: d.memberId,
      email: d.email,
      first_name: ctx.demo.firstName,
      last_name: ctx.demo.lastName,
      dept: 'Operations',
      job_title: 'Head of Operations',
      location: 'Chicago, IL',
      phone: '3125550142',
      extension: '100',
      direct: '+13125550142',
      presence: 'Available' as Presence,
      group: 'Meridian Operating Group',
    },
    ...h
      .slice()
      .contacts.filter((c) => c.kind === 'company')
      .map((c) => {
        const u = users?.colleagues.find((x) => x.email.toLowerCase() === c.email);
        return {
          id: h.userIdOf(c),
          member_id: c.member_id,
          email: c.email,
          first_name: c.first_name,
          last_name: c.last_name,
          dept: u?.dept ?? c.dept,
          job_title: u?.job_title ?? c.job_title,
          location: c.location,
          phone: c.phone,
          extension: c.extension,
          direct: c.direct_number,
          presence: c.presence,
          group: c.company,
        };
      }),
  ];
}

const groupId = (name: string) => `8jUIm-${Buffer.from(name).toString('hex').slice(0, 32).padEnd(32, '0')}`;

/** A person as the directory search answers (contact type 1). */
function personContact(x: DirectoryPerson, presence: boolean) {
  return {
    id: x.id,
    member_id: x.member_id,
    email: x.email,
    first_name: x.first_name,
    last_name: x.last_name,
    display_name: `${x.first_name} ${x.last_name}`,
    contact_type: 1,
    dept: x.dept,
    job_title: x.job_title,
    location: x.location,
    im_group_id: groupId(x.group),
    im_group_name: x.group,
    phone_number: x.phone,
    phone_numbers: [{ code: '+1', country: 'US', label: 'Office', number: x.phone, verified: true }],
    direct_numbers: [x.direct],
    extension_number: x.extension,
    user_status: 'active',
    ...(presence ? { presence_status: x.presence } : {}),
  };
}
