/**
 * The console's one palette, in light and dark: the app bar and primary buttons use `primary`, the charts use
 * `chart`, the links and secondary accents use `secondary` of the same family, and rises, falls and notices use the
 * `status` colours. Every pair meets WCAG AA (checked by lib/palette.test.ts): 4.5:1 for text on the primary colour
 * and for status text on the page and on cards, 3:1 for chart marks against the card.
 */
export const PALETTE = {
  light: {
    primary: '#1f5c99',
    primaryText: '#ffffff',
    secondary: '#0f6b5e',
    background: '#fafafb',
    paper: '#ffffff',
    chart: ['#1f5c99', '#0f6b5e', '#a65400', '#6b3fa0', '#a3324a', '#4f5d6b'],
    status: { success: '#2e7d32', error: '#c62828', warning: '#a65400' },
  },
  dark: {
    primary: '#90caf9',
    primaryText: '#0a1929',
    secondary: '#80cbc4',
    background: '#313131',
    paper: '#383838',
    chart: ['#90caf9', '#80cbc4', '#ffb74d', '#ce93d8', '#f48fb1', '#cfd8dc'],
    status: { success: '#81c784', error: '#ff8a80', warning: '#ffb74d' },
  },
} as const;

export type PaletteMode = keyof typeof PALETTE;

/** The series colours of every chart, for the mode in use. */
export const chartColors = (mode: PaletteMode): string[] => [...PALETTE[mode].chart];

/** WCAG 2.x relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
