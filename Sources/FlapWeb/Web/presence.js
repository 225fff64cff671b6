// Who of the household is around, beside the board: "Mum · here now", "James · 2 h ago",
// "Mum is writing…". This page reports its own typing (never the text), says it is leaving as
// it closes, and lets its person hide themselves.
import { $, api, E } from "/web/api.js";

let stream = null, people = [], lastTyped = 0;

// Each new live stream tells its number first, then the household; again on every change.
export function watchPresence(events) {
  events.addEventListener("stream", (event) => { stream = JSON.parse(event.data).stream; });
  events.addEventListener("presence", (event) => show(JSON.parse(event.data)));
}

export function setUpPresence() {
  $("show-me").addEventListener("change", async () => {
    const reply = await api(E.setPresence(), { showMe: $("show-me").checked });
    if (reply.status === 200) show(reply.data);
  });
  // Reported at most every 2 s while typing; flapd ends it 5 s after the last report.
  $("text").addEventListener("input", (event) => {
    if (!event.isTrusted || Date.now() - lastTyped < 2000) return;
    lastTyped = Date.now();
    api(E.setPresence(), { writing: true });
  });
  $("compose").addEventListener("submit", () => {
    if (!lastTyped) return;
    lastTyped = 0;
    api(E.setPresence(), { writing: false });
  });
  // Gone a moment after the page closes, not when flapd next finds the stream dead.
  window.addEventListener("pagehide", () => {
    if (stream === null) return;
    const { method, target } = E.setPresence();
    fetch(target, {
      method, keepalive: true, credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ here: false, stream }),
    });
  });
  setInterval(() => { if (people.length) render(); }, 60000);
}

function show(view) {
  people = view.people || [];
  $("show-me").checked = view.showMe !== false;
  render();
}

function render() {
  const others = people.filter((person) => !person.you);
  $("presence").replaceChildren(...others.map((person) => {
    const item = document.createElement("li");
    item.dataset.sender = person.sender;
    item.className = person.here ? "here" : "away";
    item.textContent = `${person.name} · ${person.here ? "here now" : ago(person.lastSeen)}`;
    return item;
  }));
  const writing = others.filter((person) => person.writing).map((person) => person.name);
  $("writing").textContent = writing.length === 0 ? "" : `${writing.join(" and ")} ${writing.length === 1 ? "is" : "are"} writing…`;
}

function ago(when) {
  if (!when) return "not seen yet";
  const minutes = Math.max(0, Math.round((Date.now() - new Date(when).getTime()) / 60000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
