// Export a chart (or any SVG on the page) as a standalone SVG file or a 2× PNG for handouts.
//
// The SVG is cloned with its computed styles written into presentation attributes (fill,
// stroke, font…), so the file looks the same without the app's style sheets, and so nothing
// needs a `style` attribute: the page's Content-Security-Policy has no 'unsafe-inline' for
// styles. The PNG draws that SVG through an <img> from a blob: URL onto a canvas (img-src
// allows blob:). Both download through an anchor with a blob: URL; no script is injected.

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
export function serializeSvg(target: Element): string {
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
  const label = svg.getAttribute('aria-label');
  if (label) {
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = label;
    clone.insertBefore(title, clone.firstChild);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
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
export function exportSvg(target: Element, filename: string): void {
  download(new Blob([serializeSvg(target)], { type: 'image/svg+xml' }), filename);
}

/** Renders `target`'s SVG to a PNG blob at `scale`× its size (2× for print). */
export async function renderPng(target: Element, scale = 2): Promise<Blob> {
  const svg = svgOf(target);
  const { width, height } = sizeOf(svg);
  const url = URL.createObjectURL(new Blob([serializeSvg(svg)], { type: 'image/svg+xml' }));
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
export async function exportPng(target: Element, filename: string, scale = 2): Promise<void> {
  download(await renderPng(target, scale), filename);
}

/** "percpu-classic-slots-step-12": the file name of a chart at a step, without extension. */
export function exportName(scenario: string, chart: string, step: number): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe(scenario)}-${safe(chart)}-step-${String(step)}`;
}
