import type { Page } from 'playwright-core';

/** A control whose text does not stand out enough from what is behind it. */
export interface ContrastProblem {
  /** Tag, name and text, to find it: `button "Sign out"`. */
  control: string;
  color: string;
  background: string;
  ratio: number;
}

/**
 * Runs in the page: every rendered button, link, text field and select (not disabled, on screen) with its text
 * colour, the colour it is painted on (its own background, else the nearest ancestor's, blended over white as the
 * page's canvas), and their WCAG 2 contrast ratio.
 */
const MEASURE = `(() => {
  const parse = (text) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(text);
    if (!m) return [0, 0, 0, 0];
    const [r, g, b, a = '1'] = m[1].split(/[\\s,/]+/).filter(Boolean);
    return [Number(r), Number(g), Number(b), Number(a)];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const background = (element) => {
    const layers = [];
    for (let e = element; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const rendered = (e) => {
    const box = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    return box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0 && style.visibility !== 'hidden'
      && Number(style.opacity) > 0;
  };
  const selector = 'a[href], button, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea, summary, [role=button]';
  return [...document.querySelectorAll(selector)].filter((e) => !e.disabled && rendered(e)).map((e) => {
    const style = getComputedStyle(e);
    const bg = background(e);
    const fg = over(parse(style.color), bg);
    const [light, dark] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
    const label = (e.getAttribute('aria-label') || e.textContent || e.getAttribute('name') || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return {
      control: e.tagName.toLowerCase() + ' "' + label + '"',
      color: style.color,
      background: 'rgb(' + bg.slice(0, 3).map(Math.round).join(', ') + ')',
      ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100,
    };
  });
})()`;

/** Every control of the page (see `MEASURE`) with its contrast ratio; `count` tells how many were measured. */
export async function measureContrast(page: Page): Promise<{ count: number; problems: ContrastProblem[] }> {
  const all = (await page.evaluate(MEASURE)) as ContrastProblem[];
  return { count: all.length, problems: all.filter((c) => c.ratio < 4.5) };
}
