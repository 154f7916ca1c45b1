// @ts-check
// Running totals over the hands of a game as an inline SVG line chart, with the same numbers
// in a table for screen readers.

import { h, svg } from "./dom.js";

const COLOURS = ["#f0c75e", "#7fd1ff", "#ff9e80", "#c5a3ff", "#8be28b", "#ff80ab", "#ffe082", "#80cbc4", "#bcaaa4", "#e6ee9c"];

/** A round step for about four grid lines up to `value`. */
function niceStep(value) {
  const rough = Math.max(1, value / 4);
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const m of [1, 2, 2.5, 5, 10]) {
    if (rough <= m * power) return m * power;
  }
  return 10 * power;
}

/**
 * series: [{name, points: [total after 0, 1, … hands], me}]; target: a line to reach (Indecision).
 */
export function totalsChart({ title, series, lowerIsBetter = false, target = null, axis = "hands played" }) {
  const width = 560;
  const height = 240;
  const pad = { left: 44, right: 16, top: 16, bottom: 34 };
  const hands = Math.max(1, ...series.map((s) => s.points.length - 1));
  const highest = Math.max(1, target ?? 0, ...series.flatMap((s) => s.points));
  const step = niceStep(highest);
  const top = Math.ceil(highest / step) * step;
  const x = (i) => pad.left + ((width - pad.left - pad.right) * i) / hands;
  const y = (v) => height - pad.bottom - ((height - pad.top - pad.bottom) * v) / top;
  const grid = [];
  for (let value = 0; value <= top + 1e-9; value += step) {
    grid.push(
      svg("line", { x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value), class: "grid" }),
      svg("text", { x: pad.left - 6, y: y(value) + 4, class: "axis", "text-anchor": "end" }, String(Math.round(value))),
    );
  }
  const ticks = [];
  const every = Math.ceil(hands / 10);
  for (let i = 0; i <= hands; i += every) {
    ticks.push(svg("text", { x: x(i), y: height - pad.bottom + 16, class: "axis", "text-anchor": "middle" }, String(i)));
  }
  const lines = series.map((s, index) => {
    const colour = COLOURS[index % COLOURS.length];
    const d = s.points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
    const last = s.points.length - 1;
    return svg(
      "g",
      { class: `series${s.me ? " me" : ""}` },
      svg("path", { d, stroke: colour, fill: "none", "stroke-width": s.me ? 3.5 : 2.2, "stroke-linejoin": "round", "stroke-linecap": "round" }),
      s.points.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: i === last ? 4.5 : 2.6, fill: colour })),
    );
  });
  const targetLine = target
    ? [
        svg("line", { x1: pad.left, x2: width - pad.right, y1: y(target), y2: y(target), class: "target" }),
        svg("text", { x: pad.left + 6, y: y(target) - 5, class: "axis target-label", "text-anchor": "start" }, `target ${target}`),
      ]
    : [];
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-hidden": "true", focusable: "false" },
    grid,
    ticks,
    svg("text", { x: (pad.left + width - pad.right) / 2, y: height - 4, class: "axis", "text-anchor": "middle" }, axis),
    targetLine,
    lines,
  );
  const legend = h(
    "ul",
    { class: "chart-legend", "aria-hidden": "true" },
    series.map((s, index) =>
      h("li", {}, h("span", { class: "swatch", style: { background: COLOURS[index % COLOURS.length] } }), `${s.name} ${s.points[s.points.length - 1]}`),
    ),
  );
  const table = h(
    "table",
    { class: "visually-hidden" },
    h("caption", {}, title),
    // The game's own word for a round: "After hand", "After deal", "After game".
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, `After ${axis.split(" ")[0].replace(/s$/, "")}`), series.map((s) => h("th", { scope: "col" }, s.name)))),
    h(
      "tbody",
      {},
      Array.from({ length: hands }, (_, i) =>
        h("tr", {}, h("th", { scope: "row" }, String(i + 1)), series.map((s) => h("td", {}, String(s.points[i + 1] ?? "")))),
      ),
    ),
  );
  return h(
    "figure",
    { class: "totals-chart" },
    h("figcaption", {}, title, lowerIsBetter ? h("span", { class: "muted" }, " (lower is better)") : null),
    chart,
    legend,
    table,
  );
}
