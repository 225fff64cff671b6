// The widget views: the board at a glance (small), its cells (medium), or its cells and the
// three most recent messages (large); live, saying when it is reconnecting or offline, and a
// way into the app wherever it is tapped.
import { api, E, glyphsFor, loadGlyphs } from "/web/api.js";
import { BoardView } from "/web/board.js";
import { registerWorker } from "/web/offline.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const asked = params.get("size");
// With ?sender=ID, the widget shows that sender's message rather than the board.
const only = params.get("sender");
const size = ["small", "medium", "large"].includes(asked) ? asked : "medium";
document.body.dataset.size = size;
const clock = (date) => date.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
let view = null, offlineSince = null;

function say(text) { $("state").textContent = text; }

// The board's content as the flaps show it: capitals, colour codes as tiles of their colour
// (named for screen readers), cut to the box the content fills, so a painting keeps its shape.
function boardNodes(codes, glyphs, { oneLine = false } = {}) {
  const filled = (c) => c !== 0;
  const rows = codes.filter((row) => row.some(filled));
  if (!rows.length) return [document.createTextNode("(blank)")];
  const first = Math.min(...rows.map((row) => row.findIndex(filled)));
  const last = Math.max(...rows.map((row) => row.length - 1 - [...row].reverse().findIndex(filled)));
  const nodes = [];
  rows.forEach((row, index) => {
    const cut = oneLine ? row.slice(row.findIndex(filled), row.length - [...row].reverse().findIndex(filled)) : row.slice(first, last + 1);
    if (index > 0) nodes.push(document.createTextNode(oneLine ? " " : "\n"));
    let run = "";
    for (const code of cut) {
      if (glyphs.names[code]) {
        if (run) { nodes.push(document.createTextNode(run)); run = ""; }
        const tile = document.createElement("span");
        tile.className = "tile";
        tile.style.backgroundColor = glyphs.colours[code];
        tile.setAttribute("role", "img");
        tile.setAttribute("aria-label", glyphs.names[code]);
        nodes.push(tile);
      } else {
        run += glyphs.characters[code] ?? " ";
      }
    }
    if (run) nodes.push(document.createTextNode(run));
  });
  return nodes;
}

async function draw(panel, glyphs) {
  if (size === "small") {
    const text = $("text");
    text.hidden = false;
    // As large as fits: the widest row decides, so a painting never scrolls sideways.
    const widest = Math.max(1, ...panel.codes.map((row) => row.filter((c) => c !== 0).length ? row.length - row.findIndex((c) => c !== 0) - [...row].reverse().findIndex((c) => c !== 0) : 0));
    text.style.setProperty("--columns", widest);
    text.replaceChildren(...boardNodes(panel.codes, glyphs));
    return;
  }
  if (!view) {
    $("boards").hidden = false;
    view = new BoardView($("boards"), panel.id, panel.rows, panel.columns, glyphs, panel.flap62);
  }
  view.show(panel.codes);
}

// The panel as `only`'s message would show on it, and whose it is said above it.
async function senderPanel(panel) {
  const reply = await api(E.slots());
  const slot = (reply.data.slots || []).find((s) => s.sender === only);
  $("who").hidden = false;
  $("who").textContent = slot ? (slot.senderName || slot.sender) : `Nothing from ${only} now`;
  return { ...panel, codes: slot ? slot.codes : panel.codes.map((row) => row.map(() => 0)) };
}

async function recent(glyphs) {
  if (size !== "large") return;
  const reply = await api(E.slots());
  if (reply.status !== 200) return;
  const newest = (reply.data.slots || []).sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, 3);
  $("recent-title").hidden = false;
  $("recent").hidden = false;
  $("recent").replaceChildren(...newest.map((slot) => {
    const li = document.createElement("li");
    const who = Object.assign(document.createElement("span"), { className: "who", textContent: slot.senderName || slot.sender });
    const what = Object.assign(document.createElement("span"), { className: "what" });
    what.append(...boardNodes(slot.codes || [], glyphs, { oneLine: true }));
    const minutes = Math.max(0, Math.round((Date.parse(slot.expiresAt) - Date.now()) / 60000));
    const left = Object.assign(document.createElement("span"), {
      className: "left", textContent: minutes >= 120 ? `${Math.round(minutes / 60)} h left` : `${minutes} min left` });
    li.append(who, what, left);
    return li;
  }));
}

async function start() {
  registerWorker();
  const session = await api(E.session());
  if (session.status === 0) { say("Offline"); return; }
  if (!session.data.signedIn) {
    $("placeholder").hidden = false;
    $("open").textContent = "Sign in";
    return;
  }
  const board = await api(E.board());
  const panel = (board.data.panels || [])[0];
  // The first panel's glyphs, for its board and for the messages listed beside it.
  const glyphs = glyphsFor(await loadGlyphs(), panel?.flap62);
  if (panel) await draw(only ? await senderPanel(panel) : panel, glyphs);
  if (board.offline) {
    offlineSince = board.seenAt || new Date();
    say(`Offline since ${clock(offlineSince)}`);
  }
  await recent(glyphs);
  watch(glyphs, panel);
}

function watch(glyphs, first) {
  const events = new EventSource(E.events().target);
  let failures = 0;
  events.addEventListener("open", () => { failures = 0; offlineSince = null; say(""); });
  events.addEventListener("board", async (event) => {
    const data = JSON.parse(event.data);
    if (first && data.panel !== first.id) return;
    await draw(only ? await senderPanel(first) : { ...first, id: data.panel, codes: data.codes }, glyphs);
    recent(glyphs);
  });
  // A sender's widget shows their message at rest, not the board's flips.
  events.addEventListener("plan", (event) => { if (view && !only) view.play(JSON.parse(event.data)); });
  events.addEventListener("error", () => {
    failures += 1;
    if (failures === 1 && !offlineSince) say("Updating…");
    else say(`Offline since ${clock(offlineSince ??= new Date())}`);
    // A closed stream (flapd refused it: signed out) is not retried by the browser.
    if (events.readyState === EventSource.CLOSED) setTimeout(() => location.reload(), 5000);
  });
}

start();
