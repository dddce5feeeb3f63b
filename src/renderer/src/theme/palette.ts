/**
 * The screen's colour pairs, each text colour with the background it sits on. They are set as
 * CSS custom properties (--<name>-fg / --<name>-bg) on <html> at start, and a unit test checks
 * every pair meets WCAG AA (4.5:1). Colour is never the only signal: every state also has an
 * icon and words.
 */

export interface ColourPair {
  fg: string;
  bg: string;
}

export const palette = {
  page: { fg: '#111418', bg: '#f4f5f7' },
  muted: { fg: '#454f5b', bg: '#f4f5f7' },
  card: { fg: '#111418', bg: '#ffffff' },
  topbar: { fg: '#ffffff', bg: '#1d2733' },
  nav: { fg: '#111418', bg: '#dde2e8' },
  'nav-current': { fg: '#ffffff', bg: '#1d2733' },
  idle: { fg: '#1d2733', bg: '#ffffff' },
  success: { fg: '#ffffff', bg: '#1b6b32' },
  warning: { fg: '#1a1400', bg: '#ffc21a' },
  danger: { fg: '#ffffff', bg: '#b3261e' },
  neutral: { fg: '#ffffff', bg: '#2f4a66' },
  sandbox: { fg: '#ffffff', bg: '#2f4a66' },
  test: { fg: '#ffffff', bg: '#7a4f00' },
  live: { fg: '#ffffff', bg: '#b3261e' },
  primary: { fg: '#ffffff', bg: '#0b57d0' },
  'error-text': { fg: '#a1221b', bg: '#ffffff' },
  'success-text': { fg: '#1b6b32', bg: '#ffffff' },
  'warning-text': { fg: '#7a4f00', bg: '#ffffff' },
} as const satisfies Record<string, ColourPair>;

/** Lines and outlines: not text, so 3:1 against the page is what counts (WCAG 1.4.11). */
export const strokes = {
  'focus-ring': '#0b57d0',
  border: '#5b6673',
} as const;

/** The custom properties to set on <html>. */
export function paletteProperties(): [string, string][] {
  const properties: [string, string][] = [];
  for (const [name, pair] of Object.entries(palette)) {
    properties.push([`--${name}-fg`, pair.fg], [`--${name}-bg`, pair.bg]);
  }
  for (const [name, colour] of Object.entries(strokes)) properties.push([`--${name}`, colour]);
  return properties;
}

/** Relative luminance of an sRGB colour written #rrggbb (WCAG 2.x). */
export function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
