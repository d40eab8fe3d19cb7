import { useEffect, useRef } from 'preact/hooks';

export interface ChartSeries {
  label: string;
  values: number[];
}

const palette = ['#2563eb', '#16a34a', '#dc2626', '#7c3aed', '#ca8a04', '#0891b2', '#db2777', '#4b5563'];

/**
 * One value per day and series drawn with uPlot, which is fetched with the
 * first chart (the view's chunk stays small). The numbers are also in the
 * table below, which is what a screen reader reads.
 */
export function UsageChart({
  title,
  unit,
  days,
  series,
}: {
  title: string;
  unit: string;
  days: string[];
  series: ChartSeries[];
}) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      const element = container.current;
      if (cancelled || !element) return;
      const width = () => Math.max(element.clientWidth, 240);
      const data = [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...series.map((each) => each.values)];
      chart = new UPlot(
        {
          width: width(),
          height: 220,
          tzDate: (seconds: number) => UPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
          series: [
            {},
            ...series.map((each, index) => ({
              label: each.label,
              stroke: palette[index % palette.length],
              width: 2,
              points: { show: true },
            })),
          ],
          axes: [{}, { label: unit }],
          legend: { live: false },
        },
        data as never,
        element,
      );
      element.dataset.drawn = 'true';
      observer = new ResizeObserver(() => chart?.setSize({ width: width(), height: 220 }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [days, series]);

  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={container} class="chart-area" role="img" aria-label={`${title}; the numbers are in the table below`} />
    </figure>
  );
}
