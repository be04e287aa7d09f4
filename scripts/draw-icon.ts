/**
 * Draws media/icon.png, the 128 × 128 icon of the Marketplace / Open VSX entry and of the Extensions view,
 * from the SVG below with the project's Chromium (playwright-core), so the PNG can be redrawn after an edit:
 *
 *   node --import tsx scripts/draw-icon.ts [out.png]
 *
 * The picture is the session tree: a root, a fork, the branch left behind (dim) and the active path to the
 * leaf (amber), with the agent's spark beside it, on the dark blue of the gallery banner (package.json).
 */
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { REPO_ROOT } from "../test/util/code-server.js";
import { CHROMIUM_PATH } from "../test/util/chromium.js";

const SIZE = 128;

const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 128 128">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#24407a"/>
      <stop offset="1" stop-color="#1e2a4a"/>
    </linearGradient>
  </defs>
  <rect x="4" y="4" width="120" height="120" rx="26" fill="url(#bg)"/>
  <g fill="none" stroke-linecap="round" stroke-width="7">
    <path d="M42 34 V62 C42 78 42 82 42 96" stroke="#9fb3d9" stroke-opacity="0.55"/>
    <path d="M42 34 V50 C42 66 86 62 86 80 V96" stroke="#fbbf24"/>
  </g>
  <circle cx="42" cy="30" r="11" fill="#fbbf24"/>
  <circle cx="42" cy="98" r="9" fill="#1e2a4a" stroke="#9fb3d9" stroke-opacity="0.8" stroke-width="5"/>
  <circle cx="86" cy="98" r="12" fill="#fbbf24"/>
  <circle cx="86" cy="98" r="5" fill="#1e2a4a"/>
  <path d="M92 22 L96.5 33.5 L108 38 L96.5 42.5 L92 54 L87.5 42.5 L76 38 L87.5 33.5 Z" fill="#ffffff"/>
</svg>`;

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? `${REPO_ROOT}/media/icon.png`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${ICON_SVG}</body></html>`);
    await page.screenshot({ path: out, omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
    console.log(`[draw-icon] ${out}`);
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
