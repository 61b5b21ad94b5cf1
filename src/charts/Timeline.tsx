import { kindNames } from '../machine/isa.ts';
import { KIND_COLOURS } from './palette.ts';
import { timelineLayout } from './timeline.ts';
import { rectOf } from './geometry.ts';

const W = 900;

/** One lane per CPU, a mark per step; clicking a mark (or using the slider) jumps there. */
export function Timeline({
  steps,
  cpus,
  cursor,
  onJump,
}: {
  steps: readonly { cpu: number; kind: number; text: string }[];
  cpus: number;
  cursor: number;
  onJump: (cursor: number) => void;
}) {
  const l = timelineLayout(steps, cpus, W);
  const cx = l.xOf(cursor);
  return (
    <div className="timeline">
      <svg
        viewBox={`0 0 ${W} ${l.height}`}
        role="img"
        aria-label={`Timeline: ${steps.length} steps, at step ${cursor}`}
      >
        {l.lanes.map((lane) => (
          <text key={lane.cpu} x={4} y={lane.y + 5} className="lane-label">
            CPU{lane.cpu}
          </text>
        ))}
        {l.marks.map((m) => (
          <rect
            key={m.index}
            {...rectOf(m)}
            fill={KIND_COLOURS[m.kind] ?? '#8a8f98'}
            opacity={m.index < cursor ? 1 : 0.35}
            onClick={() => {
              onJump(m.index + 1);
            }}
          >
            <title>{`step ${m.index + 1} (${kindNames[m.kind] ?? 'plain'}): ${steps[m.index]?.text ?? ''}`}</title>
          </rect>
        ))}
        <line x1={cx} x2={cx} y1={0} y2={l.height} className="cursor-line" />
      </svg>
      <label className="timeline-slider">
        Timeline position
        <input
          type="range"
          min={0}
          max={steps.length}
          value={cursor}
          onChange={(e) => {
            onJump(Number(e.target.value));
          }}
        />
      </label>
    </div>
  );
}
