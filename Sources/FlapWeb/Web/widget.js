// The widget views: the board at a glance (small), its cells (medium), or its cells and the
// three most recent messages (large); live, saying when it is reconnecting or offline, and a
// way into the app wherever it is tapped.
import { api, loadGlyphs } from "/web/api.js";
import { BoardView } from "/web/board.js";
import { registerWorker } from "/web/offline.js";

const $ = (id) => document.getElementById(id);
const asked = new URLSearchParams(location.search).get("size");
const size = ["small", "medium", "large"].includes(asked) ? asked : "medium";
document.body.dataset.size = size;
const clock = (date) => date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
let view = null, offlineSince = null;

function say(text) { $("state").textContent = text; }

// Colour chips come as lower-case letters; big, a square reads better.
function readable(rows) {
  return rows.map((row) => row.replace(/[a-z]/g, "■").trim()).filter((row) => row).join("\n");
}

async function draw(panel, glyphs) {
  if (size === "small") {
    const text = $("text");
    text.hidden = false;
    text.textContent = readable(panel.text || []) || "(blank)";
    return;
  }
  if (!view) {
    $("boards").hidden = false;
    view = new BoardView($("boards"), panel.id, panel.rows, panel.columns, glyphs);
  }
  view.show(panel.codes);
}

async function recent() {
  if (size !== "large") return;
  const reply = await api("GET", "/v1/slots");
  if (reply.status !== 200) return;
  const newest = (reply.data.slots || []).sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, 3);
  $("recent-title").hidden = false;
  $("recent").hidden = false;
  $("recent").replaceChildren(...newest.map((slot) => {
    const li = document.createElement("li");
    const who = Object.assign(document.createElement("span"), { className: "who", textContent: slot.senderName || slot.sender });
    const what = Object.assign(document.createElement("span"), { textContent: readable(slot.text || []).replace(/\n/g, " ") });
    const minutes = Math.max(0, Math.round((Date.parse(slot.expiresAt) - Date.now()) / 60000));
    const left = Object.assign(document.createElement("span"), {
      className: "left", textContent: minutes >= 120 ? `${Math.round(minutes / 60)} h left` : `${minutes} min left` });
    li.append(who, what, left);
    return li;
  }));
}

async function start() {
  registerWorker();
  const session = await api("GET", "/v1/session");
  if (session.status === 0) { say("Offline"); return; }
  if (!session.data.signedIn) {
    $("placeholder").hidden = false;
    $("open").textContent = "Sign in";
    return;
  }
  const glyphs = await loadGlyphs();
  const board = await api("GET", "/v1/board");
  const panel = (board.data.panels || [])[0];
  if (panel) await draw(panel, glyphs);
  if (board.offline) {
    offlineSince = board.seenAt || new Date();
    say(`Offline since ${clock(offlineSince)}`);
  }
  await recent();
  watch(glyphs, panel);
}

function watch(glyphs, first) {
  const events = new EventSource("/v1/events");
  let failures = 0;
  events.addEventListener("open", () => { failures = 0; offlineSince = null; say(""); });
  events.addEventListener("board", async (event) => {
    const data = JSON.parse(event.data);
    if (first && data.panel !== first.id) return;
    await draw({ ...first, id: data.panel, codes: data.codes, text: data.codes.map((row) => row.map((c) => glyphs.characters[c] ?? (glyphs.names[c] ? "■" : " ")).join("")) }, glyphs);
    recent();
  });
  events.addEventListener("plan", (event) => { if (view) view.play(JSON.parse(event.data)); });
  events.addEventListener("error", () => {
    failures += 1;
    if (failures === 1 && !offlineSince) say("Updating…");
    else say(`Offline since ${clock(offlineSince ??= new Date())}`);
    // A closed stream (flapd refused it: signed out) is not retried by the browser.
    if (events.readyState === EventSource.CLOSED) setTimeout(() => location.reload(), 5000);
  });
}

start();
