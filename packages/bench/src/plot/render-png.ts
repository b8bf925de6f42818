import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

/** The font shipped with the package (src/plot and dist/plot are both two levels below it). */
const FONT = fileURLToPath(new URL('../../assets/fonts/DejaVuSans.ttf', import.meta.url));

/** Rasterises an SVG to PNG with the bundled font only: no system fonts, no network. */
export function renderPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    background: 'white',
    font: { fontFiles: [FONT], loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
