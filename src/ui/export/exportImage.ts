// Export a chart (or any SVG on the page) as a standalone SVG file or a 2× PNG for handouts.
//
// The SVG is cloned with its computed styles written into presentation attributes (fill,
// stroke, font…), so the file looks the same without the app's style sheets, and so nothing
// needs a `style` attribute: the page's Content-Security-Policy has no 'unsafe-inline' for
// styles. The PNG draws that SVG through an <img> from a blob: URL onto a canvas (img-src
// allows blob:). Both download through an anchor with a blob: URL; no script is injected.
//
// An SVG drawn as an image loads nothing from outside itself, not even the page's fonts: the PNG's
// SVG carries the app's font files inside it (data: URLs in a <style>, fetched from the page's
// own origin), so the picture has the letters and the widths the chart was laid out with. The SVG
// file names the same families and stays small; a reader without them sees a fallback.

/** Presentation attributes copied from the computed style of every element. */
const PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The SVG element of `target`: itself, or the first <svg> inside it. */
export function svgOf(target: Element): SVGSVGElement {
  if (target instanceof SVGSVGElement) return target;
  const svg = target.querySelector('svg');
  if (!svg) throw new Error('nothing to export: no SVG in this element');
  return svg;
}

/** The width and height of an SVG in user units (its viewBox, else its drawn size). */
function sizeOf(svg: SVGSVGElement): { width: number; height: number } {
  const vb = svg.viewBox.baseVal;
  if (vb.width > 0 && vb.height > 0) return { width: vb.width, height: vb.height };
  const r = svg.getBoundingClientRect();
  return { width: Math.max(1, Math.round(r.width)), height: Math.max(1, Math.round(r.height)) };
}

/**
 * A standalone copy of `target`'s SVG as text: computed styles inlined as attributes, explicit
 * width and height, and the namespaces a file needs.
 */
export function serializeSvg(target: Element, heading?: string): string {
  return standalone(target, heading).text;
}

/** The captions' typeface: the app's (see fonts/fonts.css), then whatever a reader has. */
const CAPTION_FONT = "'IBM Plex Sans', 'Lab Symbols', sans-serif";

/** Caption lines above a figure: the first bold, each 16 units high, then a gap. */
const LINE = 16;
function captionHeight(caption: readonly string[]): number {
  return caption.length === 0 ? 0 : caption.length * LINE + 8;
}

/**
 * Breaks `text` into lines of at most `width` units for an 11-unit sans-serif caption (about
 * 6 units a character: a file carries no font metrics, so this errs on the short side).
 */
export function captionLines(text: string, width: number): string[] {
  const per = Math.max(12, Math.floor(width / 6.2));
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > per) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out;
}

/**
 * `target`'s SVG as a file on its own: styles inlined, its size, and above it the caption lines
 * (what it shows and where from), so a figure pasted into a handout says what it is.
 */
function standalone(
  target: Element,
  heading: string | undefined,
  fontCss = '',
): { text: string; width: number; height: number } {
  const svg = svgOf(target);
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const to = [clone, ...Array.from(clone.querySelectorAll('*'))];
  from.forEach((el, i) => {
    const copy = to[i];
    if (!copy) return;
    const cs = getComputedStyle(el);
    for (const prop of PROPS) {
      const v = cs.getPropertyValue(prop);
      if (v !== '') copy.setAttribute(prop, v);
    }
    // Classes and ids of the app mean nothing in a file; test ids neither.
    copy.removeAttribute('class');
    copy.removeAttribute('data-testid');
  });
  const { width, height } = sizeOf(svg);
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.removeAttribute('aria-describedby');
  if (fontCss !== '') {
    const style = document.createElementNS(SVG_NS, 'style');
    style.textContent = fontCss;
    clone.insertBefore(style, clone.firstChild);
  }
  const label = svg.getAttribute('aria-label');
  if (label) {
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = label;
    clone.insertBefore(title, clone.firstChild);
  }
  // The heading (scenario and step), then what the chart's name says it shows.
  // The heading's lines are bold, a little wider a character: they wrap a little sooner.
  const bold = heading === undefined ? [] : captionLines(heading, width * 0.88);
  const caption =
    heading === undefined ? [] : [...bold, ...(label ? captionLines(label, width) : [])];
  const head = captionHeight(caption);
  if (head === 0) {
    const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
    return { text, width, height };
  }
  const outer = document.createElementNS(SVG_NS, 'svg');
  outer.setAttribute('xmlns', SVG_NS);
  outer.setAttribute('width', String(width));
  outer.setAttribute('height', String(height + head));
  outer.setAttribute('viewBox', `0 0 ${String(width)} ${String(height + head)}`);
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', '#ffffff');
  outer.append(bg);
  caption.forEach((line, i) => {
    const t = document.createElementNS(SVG_NS, 'text');
    t.setAttribute('x', '6');
    t.setAttribute('y', String(LINE * (i + 1) - 3));
    t.setAttribute('font-family', CAPTION_FONT);
    t.setAttribute('font-size', i < bold.length ? '12' : '11');
    if (i < bold.length) t.setAttribute('font-weight', '700');
    t.setAttribute('fill', '#222222');
    t.textContent = line;
    outer.append(t);
  });
  clone.setAttribute('y', String(head));
  outer.append(clone);
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(outer)}`;
  return { text, width, height: height + head };
}

/** Offers `blob` as a download named `filename`. */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser time to start the download before the URL goes.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}

/** Offers `text` as a download named `filename`, of MIME type `type`. */
export function downloadText(filename: string, text: string, type: string): void {
  download(new Blob([text], { type }), filename);
}

/** Downloads `target`'s SVG (an <svg>, or an element holding one) as `filename`. */
export function exportSvg(target: Element, filename: string, heading?: string): void {
  download(new Blob([serializeSvg(target, heading)], { type: 'image/svg+xml' }), filename);
}

/** The data: URL of a font file the page loaded (same origin: connect-src 'self'). */
async function dataUrl(url: string): Promise<string> {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:font/woff2;base64,${btoa(binary)}`;
}

/**
 * The page's @font-face rules with each file inlined, for an SVG drawn as an image. Waits for
 * the page's fonts first, so the files are in the browser's cache and the chart was laid out
 * with them.
 */
export async function embeddedFonts(): Promise<string> {
  await document.fonts.ready;
  const rules: string[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    let list: CSSRuleList;
    try {
      list = sheet.cssRules;
    } catch {
      continue; // a style sheet from another origin: none of ours
    }
    for (const rule of Array.from(list)) {
      if (!(rule instanceof CSSFontFaceRule)) continue;
      const src = /url\(["']?([^"')]+)["']?\)/.exec(rule.style.getPropertyValue('src'));
      if (!src?.[1]) continue;
      const url = new URL(src[1], sheet.href ?? document.baseURI).href;
      const face = Array.from(rule.style)
        .filter((p) => p !== 'src')
        .map((p) => `${p}: ${rule.style.getPropertyValue(p)};`)
        .join(' ');
      rules.push(`@font-face { ${face} src: url(${await dataUrl(url)}); }`);
    }
  }
  return rules.join('\n');
}

/** Renders `target`'s SVG (with its caption) to a PNG blob at `scale`× its size (2× for print). */
export async function renderPng(target: Element, scale = 2, heading?: string): Promise<Blob> {
  const { text, width, height } = standalone(target, heading, await embeddedFonts());
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('this browser gives no 2D canvas to draw the PNG on');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) => {
      canvas.toBlob((b) => {
        if (b) resolve(b);
        else reject(new Error('the canvas could not be encoded as PNG'));
      }, 'image/png');
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Downloads `target`'s SVG drawn as a PNG at `scale`× (default 2×, for handouts). */
export async function exportPng(
  target: Element,
  filename: string,
  heading?: string,
  scale = 2,
): Promise<void> {
  download(await renderPng(target, scale, heading), filename);
}
