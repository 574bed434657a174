import { describe, expect, it } from 'vitest';
import { createTheme } from '@mui/material/styles';
import { PALETTE, chartColors, contrastRatio } from './palette';
import { darkTheme, lightTheme } from '../layout/themes';

const AA_TEXT = 4.5;
const AA_GRAPHICS = 3;

describe('the palette', () => {
  it('computes WCAG contrast like the specification', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  for (const [mode, options] of [
    ['light', lightTheme],
    ['dark', darkTheme],
  ] as const) {
    it(`meets WCAG AA in ${mode} mode: app bar, primary buttons and charts from one palette`, () => {
      const theme = createTheme(options);
      const colors = PALETTE[mode];
      // The primary colour is the palette's, and its text on it reads at AA.
      expect(theme.palette.primary.main).toBe(colors.primary);
      expect(contrastRatio(theme.palette.primary.main, theme.palette.primary.contrastText)).toBeGreaterThanOrEqual(
        AA_TEXT,
      );
      expect(contrastRatio(theme.palette.secondary.main, theme.palette.secondary.contrastText)).toBeGreaterThanOrEqual(
        AA_TEXT,
      );
      // The app bar takes the primary colour (one palette with the buttons).
      expect(theme.components?.MuiAppBar?.defaultProps?.color).toBe('primary');
      // Primary as text (links, outlined buttons) on the page and on cards.
      for (const surface of [colors.background, colors.paper]) {
        expect(contrastRatio(colors.primary, surface), `primary on ${surface}`).toBeGreaterThanOrEqual(AA_TEXT);
      }
      // Chart series against the card they are drawn on, and the first series is the primary colour.
      const series = chartColors(mode);
      expect(series[0]).toBe(colors.primary);
      for (const c of series) expect(contrastRatio(c, colors.paper), `chart ${c}`).toBeGreaterThanOrEqual(AA_GRAPHICS);
      expect(theme.palette.background.paper).toBe(colors.paper);
      // Rises, falls and notices are written in their status colour on the page and on cards.
      for (const [name, color] of Object.entries(colors.status)) {
        const key = name as keyof typeof colors.status;
        expect(theme.palette[key].main).toBe(color);
        for (const surface of [colors.background, colors.paper]) {
          expect(contrastRatio(color, surface), `${name} on ${surface}`).toBeGreaterThanOrEqual(AA_TEXT);
        }
      }
    });
  }
});
