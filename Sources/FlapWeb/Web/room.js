// The Wematch room as the kiosk draws it: previous beat across, current beat up, hearts gliding
// to each new sample, rings round synced clusters, stars for new pairs. Places only: no one's
// heart rate is written anywhere on the page.
import { $, api, E, isMember } from "/web/api.js";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 100, MARGIN = 8, SPAN = SIZE - MARGIN - 4;
const place = (f) => MARGIN + f * SPAN;
const heartPath = "M0,1.6 C-3.2,-0.8 -1.6,-3.2 0,-1.4 C1.6,-3.2 3.2,-0.8 0,1.6 Z";

function element(name, attributes = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

let svg = null, hearts = new Map(), rings = null, stars = null, legend = null;

function build() {
  svg = element("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, role: "img", class: "room-plot" });
  const axes = element("g", { class: "axes" });
  axes.append(element("line", { x1: MARGIN, y1: SIZE - MARGIN, x2: SIZE - 2, y2: SIZE - MARGIN }),
    element("line", { x1: MARGIN, y1: SIZE - MARGIN, x2: MARGIN, y2: 2 }),
    element("line", { x1: place(0), y1: SIZE - place(0), x2: place(1), y2: SIZE - place(1), class: "diagonal" }));
  for (let bpm = 60; bpm <= 200; bpm += 20) {
    const at = place((bpm - 40) / 160);
    axes.append(element("line", { x1: at, y1: SIZE - MARGIN, x2: at, y2: SIZE - MARGIN + 1.5 }),
      element("line", { x1: MARGIN, y1: SIZE - at, x2: MARGIN - 1.5, y2: SIZE - at }));
  }
  rings = element("g", { class: "rings" });
  stars = element("g", { class: "stars" });
  svg.append(axes, stars, rings);
  legend = document.createElement("ul");
  legend.className = "legend";
  $("room-plot").replaceChildren(svg, legend);
  hearts = new Map();
}

function draw(plot) {
  if (!svg) build();
  const seen = new Set();
  const where = new Map();
  for (const heart of plot.hearts) {
    const x = place(heart.x), y = SIZE - place(heart.y);
    where.set(heart.id, [x, y]);
    seen.add(heart.id);
    let node = hearts.get(heart.id);
    if (!node) {
      node = element("path", { d: heartPath, class: "heart" });
      node.style.transform = `translate(${x}px, ${y}px)`;
      svg.append(node);
      hearts.set(heart.id, node);
    }
    node.style.fill = heart.colour;
    node.style.opacity = heart.stale ? 0.3 : 1;
    node.style.transform = `translate(${x}px, ${y}px)`;
  }
  for (const [id, node] of hearts) if (!seen.has(id)) { node.remove(); hearts.delete(id); }
  rings.replaceChildren(...plot.clusters.map((cluster) => {
    const points = cluster.members.map((id) => where.get(id)).filter(Boolean);
    if (!points.length) return element("g");
    const cx = points.reduce((s, p) => s + p[0], 0) / points.length, cy = points.reduce((s, p) => s + p[1], 0) / points.length;
    const r = Math.max(...points.map((p) => Math.hypot(p[0] - cx, p[1] - cy))) + 4;
    const group = element("g");
    group.append(element("circle", { cx, cy, r, class: cluster.kind === "hard" ? "ring" : "ring soft" }));
    const label = element("text", { x: cx + r * 0.72 + 1, y: cy - r * 0.72 - 1, class: "chain" });
    label.textContent = String(cluster.chain);
    group.append(label);
    return group;
  }));
  stars.replaceChildren(...plot.stars.map((star) => element("path", {
    d: "M0,-2.4 L0.6,-0.6 L2.4,0 L0.6,0.6 L0,2.4 L-0.6,0.6 L-2.4,0 L-0.6,-0.6 Z", class: "star",
    transform: `translate(${place(star.x)} ${SIZE - place(star.y)})`, opacity: star.opacity,
  })));
  svg.setAttribute("aria-label", `Room ${plot.room}: ${plot.members.length} here, ${plot.synced} synced${plot.longestChain ? `, longest chain ${plot.longestChain}` : ""}`);
  const caption = document.createElement("li");
  caption.className = "muted";
  caption.textContent = `${plot.room}: ${plot.members.length} here, ${plot.synced} synced${plot.longestChain ? `, longest chain ${plot.longestChain}` : ""}`;
  legend.replaceChildren(caption, ...plot.members.map((member) => {
    const li = document.createElement("li");
    const chip = document.createElement("span");
    chip.className = "swatch";
    chip.style.background = member.colour;
    li.append(chip, member.name + (member.stale ? " (no signal)" : ""));
    return li;
  }));
}

export function watchRoom() {
  let timer = null;
  async function tick() {
    if ($("app").hidden || isMember()) { timer = setTimeout(tick, 2000); return; }
    const reply = await api(E.roomPlot());
    $("room").hidden = reply.status !== 200;
    if (reply.status === 200) draw(reply.data);
    timer = setTimeout(tick, reply.status === 200 ? 1000 : 10000);
  }
  tick();
  return () => clearTimeout(timer);
}
