// A chart's file name, apart from the exporter (exportImage.ts): the Step screen names its charts
// when it draws them, and loads the exporter only when an Export button is pressed.

/** "percpu-classic-slots-step-12": the file name of a chart at a step, without extension. */
export function exportName(scenario: string, chart: string, step: number): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe(scenario)}-${safe(chart)}-step-${String(step)}`;
}
