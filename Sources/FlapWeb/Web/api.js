// What every part of the page shares: the element lookup, the API (the session cookie goes
// with every request), and the glyphs, fetched once.
export const $ = (id) => document.getElementById(id);

// Who this page is signed in as: the owner, or a member (who sends as their own sender only).
export const session = { role: "owner", member: null };
export const isMember = () => session.role === "member";

import { keep, newKey } from "/web/outbox.js";
import { E } from "/web/endpoints.js";

// The API's endpoints, each a function of its path's values (and an object of query pairs)
// giving the request to make: `api(E.receipt(id))`.
export { E };

// `request` is an endpoint's (`E.board()`). Status 0 when flapd cannot be reached; `offline`
// when the answer is the one the app's service worker kept, `seenAt` when it was fetched.
export async function api({ method, target }, body, headers = {}) {
  let response;
  try {
    response = await fetch(target, {
      method, credentials: "same-origin",
      headers: body ? { "Content-Type": "application/json", ...headers } : headers,
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    return { status: 0, data: {}, offline: true };
  }
  const text = await response.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch { data = {}; }
  // The owner removed this phone's member: the page says so wherever the refusal came from.
  if (response.status === 401 && data.reason === "removed") window.dispatchEvent(new CustomEvent("signed-out", { detail: data }));
  const seen = response.headers.get("X-Seen-At");
  return { status: response.status, data, offline: response.headers.get("X-Offline") === "1", seenAt: seen ? new Date(seen) : null };
}

// A form's button stays disabled in the page until its handler is in place: clicked earlier, the
// browser would submit the form itself and reload the page with the message in its address.
export function onSubmit(form, handler) {
  form.addEventListener("submit", (event) => { event.preventDefault(); handler(event); });
  form.querySelectorAll("button[type=submit]").forEach((button) => { button.disabled = false; });
}

let glyphs = null;
export async function loadGlyphs() {
  if (!glyphs) glyphs = (await api({ method: "GET", target: "/web/glyphs.json" })).data;
  return glyphs;
}

// The glyphs of a panel whose flap 62 is `flap62` (as /v1/board says): "heart" draws code 62
// as a heart, as Notes and Flagships from 2026 have it; "degree" as the older Flagships' °.
export function glyphsFor(table, flap62) {
  if (flap62 !== "heart" || !table.heart) return table;
  return { ...table, characters: { ...table.characters, ...table.heart } };
}

// A list item: a name, what it holds, and buttons ([label, action] pairs).
export function item(label, detail, buttons = []) {
  const li = document.createElement("li");
  const name = document.createElement("span");
  name.textContent = label;
  const more = document.createElement("span");
  more.className = "muted";
  more.textContent = detail;
  li.append(name, more);
  for (const [text, action] of buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.setAttribute("aria-label", `${text} ${label}`);
    button.addEventListener("click", action);
    li.append(button);
  }
  return li;
}

export function fill(list, items, empty) {
  list.replaceChildren(...(items.length ? items : [Object.assign(document.createElement("li"), { textContent: empty })]));
}

export function refused(reply) {
  return reply.data.error || `Refused (${reply.status})`;
}

// Follows a message's receipt until it is final, writing each status into `where`. A newer
// message followed into the same place takes it over: the older one, still polling, stops
// rather than writing its status over the newer one's.
export async function follow(id, where, done) {
  where.dataset.following = id;
  for (let i = 0; i < 240; i++) {
    const receipt = (await api(E.receipt(id))).data;
    if (where.dataset.following !== id) return;
    const named = receipt.text ? `“${receipt.text}”` : "Message";
    where.textContent = `${named}: ${receipt.status || "sent"}${receipt.reason ? ` (${receipt.reason})` : ""}`;
    if (receipt.status && receipt.status !== "accepted") break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (done) done();
}

export function ago(date) {
  const seconds = Math.round((Date.now() - new Date(date)) / 1000);
  if (seconds < 90) return `${Math.max(0, seconds)} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

export function until(date) {
  const seconds = Math.max(0, Math.round((new Date(date) - Date.now()) / 1000));
  if (seconds < 120) return `${seconds} s left`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min left`;
  return `${Math.round(seconds / 3600)} h left`;
}

// Writes a note where a receipt was being followed, which stops following it.
export function tell(where, text, claimed) {
  if (claimed && where.dataset.following !== claimed) return;
  delete where.dataset.following;
  where.textContent = text;
}

// Takes a status line for an answer still to come: a save answered late (a busy disk's fsync)
// must not write over the receipt of a message sent since.
let claims = 0;
export function claim(where) {
  where.dataset.following = `claim-${++claims}`;
  return where.dataset.following;
}

// Colour codes as what they look like on the board.
const squares = { 63: "🟥", 64: "🟧", 65: "🟨", 66: "🟩", 67: "🟦", 68: "🟪", 69: "⬜", 70: "⬛", 71: "⬜" };

// A text as the board shows it: `{66}` as a green square, `{62}` as its glyph (°), not as braces.
export function readable(text) {
  return text.replace(/\{(\d{1,2})\}/g, (whole, code) => squares[code] || glyphs?.characters?.[code] || whole);
}

// A board's rows of codes as text, colours as squares, blank rows left out: a painting or a VBML
// layout named by what the board shows.
export function boardText(rows) {
  return (rows || []).map((row) => row.map((code) => squares[code] || glyphs?.characters?.[code] || " ").join("").trim())
    .filter((line) => line).join(" / ");
}

// What a message says, short, for the page's notes.
export function summary(body) {
  if (body.text) return `“${readable(body.text.replace(/\n/g, " / ")).slice(0, 60)}”`;
  return body.codes ? `“${boardText(body.codes).slice(0, 60)}”` : "The painting";
}

// Who a message is from, in the household's words: "You" for what this page sends, a schedule or
// a quick message by its name, a person by theirs.
export function senderLabel(slot) {
  const mine = document.getElementById("sender")?.value.trim();
  if (slot.sender === mine) return "You";
  if (slot.sender === "quick-messages") return "Quick message";
  if (slot.sender.startsWith("schedule-")) return `Schedule “${slot.senderName || slot.sender.slice(9)}”`;
  if (slot.sender === "owner" && !slot.senderName) return "The owner";
  return slot.senderName || slot.sender;
}

// "your message", "Mum's message", "James' message", "the “morning” schedule's message".
export function whoseMessage(slot) {
  const label = senderLabel(slot);
  if (label === "You") return "your message";
  if (slot.sender === "quick-messages") return "a quick message";
  if (slot.sender.startsWith("schedule-")) return `the ${label.slice(9)} schedule's message`;
  const name = label === "The owner" ? "the owner" : label;
  return `${name}${/s$/i.test(name) ? "'" : "'s"} message`;
}

// Sends a message and follows its receipt in `note`. Written while flapd cannot be reached, it
// is kept on this device and sent when flapd answers (outbox.js), with the same key.
export async function send(body, note, changed) {
  const key = newKey();
  const reply = await api(E.sendMessage(), body, { "Idempotency-Key": key });
  if (reply.status === 0) {
    await keep({ key, body, at: Date.now() });
    tell(note, `${summary(body)} is waiting: the board cannot be reached, so this device keeps it and sends it when it can.`);
    changed();
    return;
  }
  if (reply.status >= 300) { tell(note, refused(reply)); return; }
  window.dispatchEvent(new CustomEvent("message-sent"));
  follow(reply.data.id, note, changed);
  changed();
}

// Saves `fields` as the quick message named in `nameField`.
export async function saveTemplate(nameField, fields, note, changed) {
  const name = nameField.value.trim();
  if (!name) { tell(note, "Give the quick message a name first."); nameField.focus(); return; }
  const claimed = claim(note);
  const reply = await api(E.saveTemplate(name), fields);
  tell(note, reply.status < 300 ? `Saved quick message ${name}` : refused(reply), claimed);
  changed();
}
