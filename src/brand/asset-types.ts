/**
 * What the asset build produces per image: the file served under /static/fleet/assets/ and its
 * entry in the asset list; build-assets.ts and theme-icons.ts both make them.
 */
export interface AssetFile {
  /** Path below /static/fleet/assets/. */
  name: string;
  body: Buffer;
  mediaType: string;
}

export type AssetEntry = {
  id: string;
  group: 'logo' | 'shield' | 'icon' | 'social';
  layout: string;
  variant: 'light' | 'dark' | 'any';
  theme: string | null;
  format: 'svg' | 'png' | 'ico' | 'webmanifest';
  purpose?: string;
  file: string;
  width: number | null;
  height: number | null;
  alt: string;
};
