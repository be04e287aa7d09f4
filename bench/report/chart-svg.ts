/**
 * A hand-made SVG chart (no chart library): panels side by side, log–log axes, one polyline per series.
 */

/** One measured point. */
export interface ChartPoint {
  x: number;
  y: number;
  /** Tooltip. */
  label: string;
  /** Drawn as a hollow marker outside the series line (a different session shape). */
  apart?: boolean;
}

/** A line in a panel. */
export interface ChartSeries {
  name: string;
  color: string;
  dashed?: boolean;
  points: ChartPoint[];
}

/** One panel: its own y axis, shared x meaning. */
export interface ChartPanel {
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
}

const PANEL_W = 440;
const PANEL_H = 320;
const MARGIN = { left: 64, right: 16, top: 36, bottom: 48 };
const LEGEND_H = 28;

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Decades covering all values: [10^lo, 10^hi]. */
function decades(values: number[]): [number, number] {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return [0, 1];
  const lo = Math.floor(Math.log10(Math.min(...positive)));
  const hi = Math.ceil(Math.log10(Math.max(...positive)));
  return [lo, hi === lo ? lo + 1 : hi];
}

function tickLabel(exp: number): string {
  const v = 10 ** exp;
  if (v >= 1000) return `${(v / 1000).toLocaleString("en-US")}k`;
  return v >= 1 ? String(v) : v.toString();
}

function panelSvg(panel: ChartPanel, offsetX: number): string {
  const points = panel.series.flatMap((s) => s.points);
  const [xLo, xHi] = decades(points.map((p) => p.x));
  const [yLo, yHi] = decades(points.map((p) => p.y));
  const plotW = PANEL_W - MARGIN.left - MARGIN.right;
  const plotH = PANEL_H - MARGIN.top - MARGIN.bottom;
  const sx = (x: number) => offsetX + MARGIN.left + ((Math.log10(x) - xLo) / (xHi - xLo)) * plotW;
  const sy = (y: number) => MARGIN.top + plotH - ((Math.log10(y) - yLo) / (yHi - yLo)) * plotH;
  const out: string[] = [];
  out.push(
    `<text x="${offsetX + PANEL_W / 2}" y="20" text-anchor="middle" font-weight="bold">${esc(panel.title)}</text>`,
  );
  // Grid and ticks at every decade (and 2× and 5× as faint lines).
  for (let e = xLo; e <= xHi; e++) {
    const x = sx(10 ** e);
    out.push(`<line x1="${x}" y1="${MARGIN.top}" x2="${x}" y2="${MARGIN.top + plotH}" stroke="#ccc"/>`);
    out.push(`<text x="${x}" y="${MARGIN.top + plotH + 16}" text-anchor="middle">${tickLabel(e)}</text>`);
    for (const m of [2, 5]) {
      if (e < xHi) {
        const xm = sx(m * 10 ** e);
        out.push(`<line x1="${xm}" y1="${MARGIN.top}" x2="${xm}" y2="${MARGIN.top + plotH}" stroke="#eee"/>`);
      }
    }
  }
  for (let e = yLo; e <= yHi; e++) {
    const y = sy(10 ** e);
    out.push(
      `<line x1="${offsetX + MARGIN.left}" y1="${y}" x2="${offsetX + MARGIN.left + plotW}" y2="${y}" stroke="#ccc"/>`,
    );
    out.push(`<text x="${offsetX + MARGIN.left - 6}" y="${y + 4}" text-anchor="end">${tickLabel(e)}</text>`);
    for (const m of [2, 5]) {
      if (e < yHi) {
        const ym = sy(m * 10 ** e);
        out.push(
          `<line x1="${offsetX + MARGIN.left}" y1="${ym}" x2="${offsetX + MARGIN.left + plotW}" y2="${ym}" stroke="#eee"/>`,
        );
      }
    }
  }
  out.push(
    `<rect x="${offsetX + MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
  );
  out.push(
    `<text x="${offsetX + MARGIN.left + plotW / 2}" y="${PANEL_H - 10}" text-anchor="middle">${esc(panel.xLabel)}</text>`,
  );
  const yMid = MARGIN.top + plotH / 2;
  out.push(
    `<text x="${offsetX + 16}" y="${yMid}" text-anchor="middle" transform="rotate(-90 ${offsetX + 16} ${yMid})">${esc(panel.yLabel)}</text>`,
  );
  for (const s of panel.series) {
    const pts = s.points.filter((p) => p.x > 0 && p.y > 0).sort((a, b) => a.x - b.x);
    if (pts.length === 0) continue;
    const dash = s.dashed ? ' stroke-dasharray="5 4"' : "";
    const line = pts.filter((p) => !p.apart);
    out.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} points="${line
        .map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`)
        .join(" ")}"/>`,
    );
    for (const p of pts) {
      const fill = p.apart ? `fill="#fff" stroke="${s.color}" stroke-width="1.5"` : `fill="${s.color}"`;
      out.push(
        `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3.5" ${fill}><title>${esc(`${s.name}: ${p.label}`)}</title></circle>`,
      );
    }
  }
  return out.join("\n");
}

/** The chart as a standalone SVG document, captions one per line below. The legend lists the first panel's series. */
export function chartSvg(panels: ChartPanel[], captions: string[]): string {
  const width = PANEL_W * panels.length;
  const height = PANEL_H + LEGEND_H + 16 * captions.length + 4;
  // Entries side by side, each as wide as its name (about 7 px per character at 12 px).
  let next = 80;
  const legend = (panels[0]?.series ?? []).map((s) => {
    const x = next;
    next += 34 + 7 * s.name.length + 36;
    const y = PANEL_H + 14;
    const dash = s.dashed ? ' stroke-dasharray="5 4"' : "";
    return `<line x1="${x}" y1="${y}" x2="${x + 28}" y2="${y}" stroke="${s.color}" stroke-width="2"${dash}/><text x="${x + 34}" y="${y + 4}">${esc(s.name)}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...panels.map((p, i) => panelSvg(p, i * PANEL_W)),
    ...legend,
    ...captions.map(
      (caption, i) =>
        `<text x="${width / 2}" y="${PANEL_H + LEGEND_H + 12 + 16 * i}" text-anchor="middle" fill="#555" font-size="11">${esc(caption)}</text>`,
    ),
    `</svg>`,
    "",
  ].join("\n");
}
