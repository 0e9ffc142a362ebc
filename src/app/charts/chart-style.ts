/** How one series is drawn. */
export interface SeriesStyle {
  /** A CSS colour; `var(--text)` style names are resolved by the view. */
  stroke: string;
  /** Canvas dash pattern (empty: solid), so lines differ by more than colour. */
  dash: number[];
  width: number;
}

/** Okabe-Ito based colours, at least 4.5:1 against the light panel and the plateau band. */
export const LIGHT_PALETTE = ['#0072b2', '#b8470b', '#00785a', '#a23c86', '#7f5f00', '#5b4bb7'] as const;

/** The same hues lightened: at least 4.5:1 against the dark panel and band. */
export const DARK_PALETTE = ['#56b4e9', '#f28b52', '#3fd0a5', '#e58bc8', '#e3b341', '#a89bff'] as const;

const DASHES: number[][] = [[], [7, 4], [2, 3], [9, 3, 2, 3], [1, 3], [12, 5]];

/** Stroke, dash and width of palette slot `colorIndex` (-1: the emphasised mean line in the text colour). */
export function seriesStyle(colorIndex: number, dark: boolean, textColor: string): SeriesStyle {
  if (colorIndex < 0) return { stroke: textColor, dash: [], width: 2.5 };
  const palette = dark ? DARK_PALETTE : LIGHT_PALETTE;
  const round = Math.floor(colorIndex / palette.length);
  return {
    stroke: palette[colorIndex % palette.length]!,
    dash: DASHES[(colorIndex + round) % DASHES.length]!,
    width: 1.75,
  };
}

/** Canvas dash pattern as an SVG `stroke-dasharray` (for the legend swatches). */
export function dashArray(dash: readonly number[]): string {
  return dash.length === 0 ? 'none' : dash.join(' ');
}

/**
 * The y axis interval: the soft range widened to the data, with 5% of the span added on a side
 * only where the data goes past the soft range; a flat line without a soft range gets +-1.
 */
export function yRange(
  dataMin: number | null,
  dataMax: number | null,
  soft: readonly [number, number] | undefined,
): [number, number] {
  const [softLo, softHi] = soft ?? [dataMin ?? 0, dataMax ?? 1];
  const lo = Math.min(softLo, dataMin ?? softLo);
  const hi = Math.max(softHi, dataMax ?? softHi);
  if (hi === lo) return [lo - 1, hi + 1];
  const pad = (hi - lo) * 0.05;
  return [lo < softLo ? lo - pad : lo, hi > softHi ? hi + pad : hi];
}

/** The x axis interval: the epochs with half an epoch of room on both sides (so edge points are whole). */
export function xRange(first: number | null, last: number | null): [number, number] {
  if (first === null || last === null) return [0.5, 1.5];
  return [first - 0.5, last + 0.5];
}
