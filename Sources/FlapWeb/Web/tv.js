// The board on a TV (/tv): one panel, full screen, its cells flipping as the panel's plan has
// them, from the same live stream the page uses. Opened with the viewer key in the address's
// fragment (/tv#key=…, never sent in a request line or logged), or with the page's session;
// reconnects by itself; dimmed during the board's quiet hours; with the board's clacks once a
// tap allows sound (browsers make a page wait for one), silent whenever the board is.
import { api, E, loadGlyphs } from "/web/api.js";
import { BoardView } from "/web/board.js";
import { Clacks } from "/web/clacks.js";

const $ = (id) => document.getElementById(id);
const fragment = new URLSearchParams(location.hash.slice(1));
const key = fragment.get("key");
const wanted = new URLSearchParams(location.search).get("panel");
const headers = key ? { Authorization: `Bearer ${key}` } : {};
let view = null, panelID = null;
const clacks = new Clacks(async () => {
  const response = await fetch(E.clackSample().target, { headers, credentials: "same-origin" });
  if (!response.ok) throw new Error(`the clack: ${response.status}`);
  return response.arrayBuffer();
});

function say(text) { $("state").textContent = text; }

async function board() {
  const reply = await api(E.board(), undefined, headers);
  if (reply.status === 401 || reply.status === 403) {
    say(key ? "The key in this address is not the board's viewer key." : "Open /tv#key=VIEWER-KEY (the page's Widgets section has its QR code).");
    return null;
  }
  if (reply.status !== 200) return null;
  const panels = reply.data.panels || [];
  return panels.find((p) => p.id === wanted) || panels[0] || null;
}

async function draw(panel) {
  document.body.classList.toggle("quiet", !!panel.quietUntil && new Date(panel.quietUntil) > new Date());
  if (view && panelID === panel.id && view.rows === panel.rows && view.columns === panel.columns) { view.show(panel.codes); return; }
  panelID = panel.id;
  $("board").replaceChildren();
  $("board").style.setProperty("--rows", panel.rows);
  $("board").style.setProperty("--columns", panel.columns);
  view = new BoardView($("board"), panel.id, panel.rows, panel.columns, await loadGlyphs(), panel.flap62);
  view.show(panel.codes);
}

// Server-sent events read from a fetch, which (unlike EventSource) can send the key in a header.
async function listen() {
  const response = await fetch(E.events().target, { headers, credentials: "same-origin" });
  if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
  say("");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!name || !data) continue;
      const event = JSON.parse(data);
      if (event.panel !== panelID || !view) continue;
      if (name === "board") view.show(event.codes);
      if (name === "plan") { view.play(event); clacks.play(event); soundSaysSilent(event.volume == null); }
    }
  }
}

// Forever: the board as it stands, then its events; after a drop, again, waiting a little longer
// each time (up to 10 s), so a restarted flapd is found within seconds.
async function run() {
  let wait = 1000;
  for (;;) {
    try {
      const panel = await board();
      if (panel) {
        await draw(panel);
        wait = 1000;
        await listen();
      }
    } catch {
      // flapd unreachable or restarting: said below, tried again.
    }
    say("Reconnecting…");
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, 10_000);
  }
}

// The sound button: a tap turns the clacks on (and off again); it fades while nobody is near.
const button = $("sound");
let silentBoard = false, fade = null;
// Shown again only when the board falls silent or speaks again, not at every message.
function soundSaysSilent(silent) { if (silent !== silentBoard) { silentBoard = silent; label(); } }
function label() {
  button.textContent = !clacks.on ? "Tap for sound"
    : silentBoard ? "Sound on: the board is silent now (muted or quiet hours)" : "Sound on · tap to turn off";
  button.classList.remove("faded");
  clearTimeout(fade);
  if (clacks.on) fade = setTimeout(() => button.classList.add("faded"), 5000);
}
button.addEventListener("click", async () => {
  try {
    if (clacks.on) await clacks.stop(); else await clacks.start();
  } catch (error) {
    say(`No sound: ${error.message}`);
  }
  label();
});
for (const kind of ["pointermove", "pointerdown", "keydown"]) document.addEventListener(kind, () => { if (clacks.on) label(); });

// Quiet hours begin and end while the stream is still: looked at again each minute.
setInterval(async () => { const panel = await board(); if (panel) document.body.classList.toggle("quiet", !!panel.quietUntil && new Date(panel.quietUntil) > new Date()); }, 60_000);
run();
