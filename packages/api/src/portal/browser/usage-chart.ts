// The account page's bar chart of calls per day, drawn as SVG (no chart
// library) at the width it is shown at (a phone's 300-odd pixels or a
// desktop's 600), so its 12 px text stays 12 px. The numbers are also in a
// table beside it for screen readers; the chart itself is one labelled image.
import { formatNumber } from './dom.ts';

const SVG = 'http://www.w3.org/2000/svg';
const MIN_WIDTH = 280;
const MAX_WIDTH = 2000;
const HEIGHT = 200;
const AXIS = 28;

function svg(tag: string, attributes: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

export function usageChart(days: { date: string; requests: number; billable: number }[], title: string, shownWidth: number): SVGElement {
  const WIDTH = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, shownWidth || 640)));
  const max = Math.max(1, ...days.map((d) => d.requests));
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': `${title}: ${formatNumber(total)}`, class: 'usage' });
  const plotHeight = HEIGHT - AXIS;
  const slot = (WIDTH - AXIS) / Math.max(days.length, 1);
  chart.append(svg('line', { x1: AXIS, y1: plotHeight, x2: WIDTH, y2: plotHeight, class: 'axis' }));
  chart.append(svg('text', { x: AXIS - 4, y: 12, 'text-anchor': 'end', class: 'tick' }, formatNumber(max)));
  chart.append(svg('text', { x: AXIS - 4, y: plotHeight, 'text-anchor': 'end', class: 'tick' }, '0'));
  days.forEach((day, i) => {
    const x = AXIS + i * slot + slot * 0.15;
    const width = slot * 0.7;
    const height = (day.requests / max) * (plotHeight - 8);
    const billable = (day.billable / max) * (plotHeight - 8);
    const group = svg('g', {});
    group.append(svg('title', {}, `${day.date}: ${day.requests} (${day.billable})`));
    group.append(svg('rect', { x, y: plotHeight - height, width, height, class: 'calls' }));
    if (billable > 0) group.append(svg('rect', { x, y: plotHeight - billable, width, height: billable, class: 'billable' }));
    chart.append(group);
    const dayOfMonth = Number(day.date.slice(8));
    // Day numbers every 5 days, every 10 on a narrow chart (they need about 24 px each).
    const every = slot * 5 >= 24 ? 5 : 10;
    if (dayOfMonth === 1 || dayOfMonth % every === 0) {
      chart.append(svg('text', { x: x + width / 2, y: HEIGHT - 8, 'text-anchor': 'middle', class: 'tick' }, String(dayOfMonth)));
    }
  });
  return chart;
}
