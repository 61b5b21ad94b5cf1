// Writing a Live-mode link (the format is described in liveLink.ts, which reads one). Apart from
// the reader: Step mode writes a link to replay its schedule on the workers, and a Step link's
// JavaScript has a budget (e2e/first-page.spec.ts) that the reader's checks would only add to.

import type { LiveSettings } from '../live/control.ts';
import type { EngineKind } from '../live/engine/engine.ts';
import { compressToEncodedURIComponent } from 'lz-string';

/** The links' short names for the run settings (irq=1000 is irqRate 1000). */
export const SETTING_KEYS: Readonly<Record<string, keyof LiveSettings>> = {
  irq: 'irqRate',
  nmi: 'nmiRate',
  mig: 'migrationRate',
  period: 'periodUs',
  hotplug: 'hotplugRate',
};

export function formatLiveLink(link: {
  scenario: string;
  cpus?: number | null;
  choices?: Readonly<Record<string, string>>;
  settings?: Partial<LiveSettings>;
  engine?: EngineKind | null;
  replay?: { schedule: string; params: Readonly<Record<string, string>> } | null;
  program?: string | null;
}): string {
  const q = new URLSearchParams();
  if (link.program) q.set('src', compressToEncodedURIComponent(link.program));
  if (link.cpus) q.set('cpus', String(link.cpus));
  for (const [k, v] of Object.entries(link.choices ?? {})) q.set(k, v);
  for (const [short, long] of Object.entries(SETTING_KEYS)) {
    const v = link.settings?.[long];
    if (v !== undefined) q.set(short, String(v));
  }
  if (link.engine && link.engine !== 'compiled') q.set('engine', link.engine);
  if (link.replay) {
    q.set('sched', link.replay.schedule);
    for (const [k, v] of Object.entries(link.replay.params)) q.set(`s.${k}`, v);
  }
  const query = q.toString();
  return `#/live/${encodeURIComponent(link.scenario)}${query ? `?${query}` : ''}`;
}
