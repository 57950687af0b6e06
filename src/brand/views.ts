/**
 * The catalog's views of themes, assets and documents: what the manifest, the portal and
 * llms.txt show of them, apart from catalog.ts so the builders it calls can name them.
 */
import type { AssetEntry } from './asset-types.js';
import type { wcagLevel } from './contrast.js';

export type ColorContrast = {
  onLight: number;
  onDark: number;
  /** The text color to set on this color, and its ratio. */
  text: string;
  textRatio: number;
  textLevel: ReturnType<typeof wcagLevel>;
};

export type ThemeView = {
  key: string;
  kind: 'funnel' | 'official';
  name: string;
  business: string | null;
  color: string;
  color2: string;
  tagline: string;
  icon: string;
  /** The drawn icon (absolute URLs and alt text), for themes whose brand folder has one. */
  iconSvg?: string;
  iconPng?: string;
  iconAlt?: string;
  contrast: { color: ColorContrast; color2: ColorContrast };
  css: { selector: string; variables: Record<string, string> };
  socialImage: string;
};

export type AssetItem = AssetEntry & {
  url: string;
  mediaType: string;
  bytes: number;
  sha256: string;
};

export type DocItem = {
  slug: string;
  group: string;
  title: string;
  summary: string;
  audience: string;
  url: string;
  markdownUrl: string;
  words: number;
  bytes: number;
  sha256: string;
};

export type DocGroup = {
  key: string;
  title: string;
  description: string;
  docs: DocItem[];
};
