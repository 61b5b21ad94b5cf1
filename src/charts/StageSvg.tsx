import type { ReactNode, Ref } from 'react';

/**
 * The frame of a Step-mode stage chart: an SVG image named for screen readers, with its ground
 * drawn as an attribute (white) that the page's theme restyles, so an exported SVG keeps a ground
 * of its own; and, when `arrowId` is given, the arrow head its lines end with (`url(#arrowId)`).
 */
export function StageSvg({
  className,
  width,
  height,
  label,
  describedBy,
  svgRef,
  arrowId,
  children,
}: {
  className: string;
  width: number;
  height: number;
  label: string;
  describedBy?: string | undefined;
  svgRef?: Ref<SVGSVGElement> | undefined;
  arrowId?: string;
  children: ReactNode;
}) {
  return (
    <svg
      ref={svgRef}
      className={className}
      viewBox={`0 0 ${String(width)} ${String(height)}`}
      role="img"
      aria-label={label}
      aria-describedby={describedBy}
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect className="chart-bg" x={0} y={0} width={width} height={height} fill="#ffffff" />
      {arrowId !== undefined && (
        <defs>
          <marker
            id={arrowId}
            viewBox="0 0 10 10"
            refX={8}
            refY={5}
            markerWidth={7}
            markerHeight={7}
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
          </marker>
        </defs>
      )}
      {children}
    </svg>
  );
}
