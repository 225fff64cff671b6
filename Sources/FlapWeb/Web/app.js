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
  refreshLists();
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

$("save-template").addEventListener("click", async () => {
  const name = $("template-name").value.trim();
  if (!name) { $("receipt").textContent = "Give the quick message a name first."; $("template-name").focus(); return; }
  const reply = await api("PUT", `/v1/templates/${encodeURIComponent(name)}`, { text: $("text").value, align: $("align").value, valign: $("valign").value });
  $("receipt").textContent = reply.status < 300 ? `Saved quick message ${name}` : (reply.data.error || `Refused (${reply.status})`);
  refreshLists();
});

function item(label, detail, buttonText, action) {
  const li = document.createElement("li");
  const name = document.createElement("span");
  name.textContent = label;
  const more = document.createElement("span");
  more.className = "muted";
  more.textContent = detail;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = buttonText;
  button.setAttribute("aria-label", `${buttonText} ${label}`);
  button.addEventListener("click", action);
  li.append(name, more, button);
  return li;
}

function until(date) {
  const seconds = Math.max(0, Math.round((new Date(date) - Date.now()) / 1000));
  if (seconds < 120) return `${seconds} s left`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min left`;
  return `${Math.round(seconds / 3600)} h left`;
}

async function refreshLists() {
  const templates = (await api("GET", "/v1/templates")).data.templates || [];
  $("templates").replaceChildren(...templates.map((t) => item(t.name, (t.fields.text || "(codes)").replace(/\n/g, " / "), "Send", async () => {
    const reply = await api("POST", `/v1/templates/${encodeURIComponent(t.name)}/send`, {});
    if (reply.status < 300) follow(reply.data.id); else $("receipt").textContent = reply.data.error || `Refused (${reply.status})`;
    setTimeout(refreshLists, 300);
  })));
  if (!templates.length) $("templates").replaceChildren(Object.assign(document.createElement("li"), { textContent: "None yet." }));
  const slots = (await api("GET", "/v1/slots")).data.slots || [];
  $("slots").replaceChildren(...slots.map((slot) => item(slot.senderName || slot.sender, `${slot.text.join(" / ")} · ${until(slot.expiresAt)}`, "Clear", async () => {
    await api("DELETE", `/v1/slots/${encodeURIComponent(slot.sender)}`);
    refreshLists();
  })));
  if (!slots.length) $("slots").replaceChildren(Object.assign(document.createElement("li"), { textContent: "No messages." }));
}
setInterval(() => { if (!$("app").hidden) refreshLists(); }, 5000);

async function follow(id) {
  for (let i = 0; i < 120; i++) {
    const receipt = (await api("GET", `/v1/receipts/${encodeURIComponent(id)}`)).data;
    $("receipt").textContent = `Message ${id}: ${receipt.status || "sent"}`;
    if (receipt.status && receipt.status !== "accepted") { refreshLists(); return; }
    await new Promise((r) => setTimeout(r, 500));
  }
}

start();
