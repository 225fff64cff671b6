import { BoardView } from "/web/board.js";

const $ = (id) => document.getElementById(id);
const json = { "Content-Type": "application/json" };

async function api(method, path, body) {
  const response = await fetch(path, { method, headers: body ? json : {}, body: body ? JSON.stringify(body) : undefined, credentials: "same-origin" });
  const text = await response.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch { data = {}; }
  return { status: response.status, data };
}

async function start() {
  const session = await api("GET", "/v1/session");
  if (session.status === 200) open(); else signInPage();
}

function signInPage() {
  $("app").hidden = true;
  $("sign-out").hidden = true;
  $("sign-in").hidden = false;
  $("key").focus();
}

$("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const reply = await api("POST", "/v1/session", { key: $("key").value });
  $("key").value = "";
  if (reply.status === 200) { $("sign-in-error").textContent = ""; open(); }
  else $("sign-in-error").textContent = reply.data.error || "The key was refused.";
});

$("sign-out").addEventListener("click", async () => {
  await api("DELETE", "/v1/session");
  if (events) events.close();
  signInPage();
});

let events = null;
const views = new Map();

async function open() {
  $("sign-in").hidden = true;
  $("app").hidden = false;
  $("sign-out").hidden = false;
  const glyphs = (await api("GET", "/web/glyphs.json")).data;
  const boards = (await api("GET", "/v1/board")).data.panels || [];
  $("boards").replaceChildren();
  views.clear();
  for (const panel of boards) {
    const view = new BoardView($("boards"), panel.id, panel.rows, panel.columns, glyphs);
    view.show(panel.codes);
    views.set(panel.id, view);
  }
  events = new EventSource("/v1/events");
  events.addEventListener("board", (event) => { const d = JSON.parse(event.data); views.get(d.panel)?.show(d.codes); });
  events.addEventListener("plan", (event) => { const d = JSON.parse(event.data); views.get(d.panel)?.play(d); });
  preview();
}

let previewTimer = null;
function preview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    const text = $("text").value;
    if (!text) { $("preview-note").textContent = ""; $("preview").replaceChildren(); return; }
    const reply = await api("POST", "/v1/layout", { text, align: $("align").value, valign: $("valign").value });
    const d = reply.data;
    if (d.error) {
      $("preview-note").textContent = d.error.line ? `Line ${d.error.line}, character ${d.error.position}: ${d.error.reason}` : d.error.reason;
      return;
    }
    $("preview-note").textContent = (d.warnings || []).join(" ");
    $("preview").replaceChildren();
    const glyphs = (await api("GET", "/web/glyphs.json")).data;
    new BoardView($("preview"), "Preview", d.codes.length, d.codes[0].length, glyphs).show(d.codes);
  }, 200);
}
["text", "align", "valign"].forEach((id) => $(id).addEventListener("input", preview));

$("compose").addEventListener("submit", async (event) => {
  event.preventDefault();
  const reply = await api("POST", "/v1/messages", {
    text: $("text").value, align: $("align").value, valign: $("valign").value, sender: { id: $("sender").value || "web" },
  });
  if (reply.status >= 300) { $("receipt").textContent = reply.data.error || `Refused (${reply.status})`; return; }
  follow(reply.data.id);
});

async function follow(id) {
  for (let i = 0; i < 120; i++) {
    const receipt = (await api("GET", `/v1/receipts/${encodeURIComponent(id)}`)).data;
    $("receipt").textContent = `Message ${id}: ${receipt.status || "sent"}`;
    if (receipt.status && receipt.status !== "accepted") return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

start();
