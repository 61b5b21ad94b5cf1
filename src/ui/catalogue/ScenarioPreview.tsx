import { cpuColour } from '../../charts/palette.ts';
import { PREVIEW_H, PREVIEW_W, type PreviewLayout } from '../../charts/previewMarks.ts';
import { rectOf } from '../../charts/geometry.ts';

/**
 * The scenario's picture at the end of its first witness, in 120 × 64 pixels: per-CPU bars in
 * the CPUs' colours, the words they race on as boxes. Its accessible name says the values. Laid
 * out when the app was built (src/charts/cards.ts): drawing it takes no scenario and no d3.
 */
export function ScenarioPreview({
  preview,
}: {
  preview: { readonly text: string; readonly layout: PreviewLayout };
}) {
  const l = preview.layout;
  return (
    <svg
      className="preview"
      viewBox={`0 0 ${String(PREVIEW_W)} ${String(PREVIEW_H)}`}
      width={PREVIEW_W}
      height={PREVIEW_H}
      role="img"
      aria-label={preview.text}
    >
      {l.rects.map((r, i) => (
        <rect
          key={`r${String(i)}`}
          {...rectOf(r)}
          className={`preview-${r.kind}`}
          {...(r.kind === 'bar' ? { fill: cpuColour(r.cpu) } : { rx: 3 })}
        />
      ))}
      {l.lines.map((line, i) => (
        <line
          key={`l${String(i)}`}
          x1={line.x1}
          x2={line.x2}
          y1={line.y}
          y2={line.y}
          className={`preview-${line.kind}`}
        />
      ))}
      {l.texts.map((t, i) => (
        <text
          key={`t${String(i)}`}
          x={t.x}
          y={t.y}
          textAnchor={t.anchor}
          dominantBaseline="central"
          className={`preview-${t.kind}`}
          {...(t.fit === null ? {} : { textLength: t.fit, lengthAdjust: 'spacingAndGlyphs' })}
        >
          {t.text}
        </text>
      ))}
    </svg>
  );
}
