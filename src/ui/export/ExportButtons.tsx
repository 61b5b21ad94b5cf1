import { type RefObject, useState } from 'react';
import './export.css';
import { messageOf } from '../../machine/errors.ts';

// The exporter (serialising, rasterising, downloading) loads when a button is first pressed: the
// screens that show these buttons do not need it to draw.
const exporter = () => import('./exportImage.ts');

/**
 * "SVG" and "PNG" buttons for one chart: they download the chart as `<name>.svg` or a 2×
 * `<name>.png`. `what` names the chart in the buttons' accessible names ("Export counter chart
 * as SVG"); a failure is said in the status line next to them.
 */
export function ExportButtons({
  target,
  what,
  name,
  heading,
}: {
  target: RefObject<Element | null>;
  what: string;
  /** File name without extension, e.g. "percpu-classic-slots-step-12". */
  name: string;
  /** The figure's first caption line: "percpu-classic, step 12: the counter". */
  heading?: string;
}) {
  const [problem, setProblem] = useState('');
  const run = (
    f: (x: Awaited<ReturnType<typeof exporter>>, el: Element) => Promise<void> | void,
  ) => {
    const el = target.current;
    // A chart that loads when first shown (the sequence word) may not be drawn yet.
    if (!el) {
      setProblem('The chart is not drawn yet: press again once it is.');
      return;
    }
    setProblem('');
    exporter()
      .then((x) => f(x, el))
      .catch((e: unknown) => {
        setProblem(`Export failed: ${messageOf(e)}`);
      });
  };
  return (
    <div className="chart-export" role="group" aria-label={`Export ${what}`}>
      <span aria-hidden="true">Export:</span>
      <button
        type="button"
        aria-label={`Export ${what} as SVG`}
        onClick={() => {
          run((x, el) => {
            x.exportSvg(el, `${name}.svg`, heading);
          });
        }}
      >
        SVG
      </button>
      <button
        type="button"
        aria-label={`Export ${what} as PNG`}
        onClick={() => {
          run((x, el) => x.exportPng(el, `${name}.png`, heading));
        }}
      >
        PNG
      </button>
      <span role="status">{problem}</span>
    </div>
  );
}
