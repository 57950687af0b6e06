/** What the marketplace routes share: the slice, the emulator's own app id, its links, and permissions grouped by product. */
import type { EmulatorContext } from '../../context.js';
import type { MarketplaceSlice } from './records.js';

export const slice = (ctx: EmulatorContext) => ctx.slice<MarketplaceSlice>('marketplace');
/** The emulator's own app: its id is the client id. */
export const ownId = (ctx: EmulatorContext) => ctx.options.clientId;

export const title = (product: string) =>
  product
    .split('_')
    .map((w) => (w ? `${w[0]?.toUpperCase() ?? ''}${w.slice(1)}` : w))
    .join(' ');

/** Permissions grouped by product, as the app's listing shows them. */
export const permissions = (scopes: string[]) => {
  const groups = new Map<string, string[]>();
  for (const sc of scopes) {
    const product = sc.split(':')[0] ?? sc;
    groups.set(product, [...(groups.get(product) ?? []), sc]);
  }
  return [...groups.entries()].map(([product, list]) => ({
    group: product,
    group_message: `The app can access your ${title(product)} data as the scopes below allow.`,
    title: title(product),
    permissions: list.map((name) => ({ name })),
  }));
};

export const LINKS = {
  documentation_url: 'https://meridianfleet.example/gateway/docs',
  privacy_policy_url: 'https://meridianfleet.example/privacy',
  support_url: 'https://meridianfleet.example/support',
  terms_of_use_url: 'https://meridianfleet.example/terms',
};
