// Writing a message: colour chips and emoji, a live preview laid out by flapd itself, the flip
// and how long it stays, then its receipt followed to the end.
import { $, api, E, loadGlyphs, onSubmit, readable, saveTemplate, send } from "/web/api.js";
import { BoardView } from "/web/board.js";

export async function setUpCompose(changed) {
  const glyphs = await loadGlyphs();
  const chips = $("chips");
  for (const [code, name] of Object.entries(glyphs.names)) {
    const button = chip(`{${code}}`, `Insert a ${name} chip`, glyphs.colours[code]);
    button.dataset.code = code;
    chips.append(button);
  }
  // The emoji flapd draws, each as it will be shown (its table: GET /v1/emoji).
  $("emoji-picker").addEventListener("toggle", fillEmoji, { once: true });
  ["text", "align", "valign", "transition"].forEach((id) => $(id).addEventListener("input", preview));
  $("text").addEventListener("input", count);
  onSubmit($("compose"), () => send(message(), $("receipt"), changed));
  $("save-template").addEventListener("click", () => {
    const { text, align, valign, transition } = message();
    saveTemplate($("template-name"), { text, align, valign, transition }, $("receipt"), changed);
  });
}

async function fillEmoji() {
  const reply = await api(E.emoji());
  const grid = $("emoji-grid");
  for (const entry of reply.data?.emoji || []) {
    const button = chip(entry.emoji, `Insert ${entry.name}, shown as ${entry.shownAs}`);
    button.className = "emoji";
    button.textContent = entry.emoji;
    grid.append(button);
  }
}

// A chip inserts its text where the cursor is.
function chip(insert, label, colour) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "chip";
  button.setAttribute("aria-label", label);
  button.title = label;
  if (colour) button.style.backgroundColor = colour;
  button.addEventListener("click", () => {
    const text = $("text");
    const start = text.selectionStart ?? text.value.length;
    text.setRangeText(insert, start, text.selectionEnd ?? start, "end");
    text.focus();
    preview();
  });
  return button;
}

function message() {
  const body = {
    text: $("text").value, align: $("align").value, valign: $("valign").value,
    sender: { id: $("sender").value.trim() || "owner" }, transition: { strategy: $("transition").value },
  };
  // Send later: the local time picked, as an instant; the expiry counts from it.
  const at = $("send-at").value ? new Date($("send-at").value) : null;
  if (at) body.notBefore = at.toISOString();
  // "Then back to what was there": a temporary message, which ends after its duration.
  const shown = $("expiry").value;
  if (shown.startsWith("for-")) { body.duration = Number(shown.slice(4)); return body; }
  const seconds = Number(shown);
  if (seconds) body.expiresAt = new Date((at ?? new Date()).getTime() + seconds * 1000).toISOString();
  return body;
}

// The characters the text puts on the board, against the flaps there are ({nn} is one flap).
let flaps = 132, flipSeconds = null;
function count() {
  const text = $("text").value;
  const used = [...text.replace(/\{\d{1,2}\}/g, "#").replace(/\n/g, "")].length;
  const flip = text && flipSeconds != null ? ` · about ${Math.max(1, Math.round(flipSeconds))} s to flip` : "";
  $("compose-count").textContent = text ? `${used}/${flaps}${flip}` : "";
}

let timer = null;
function preview() {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    const text = $("text").value;
    const note = $("preview-note");
    if (!text) { note.textContent = ""; $("preview").replaceChildren(); count(); return; }
    const reply = await api(E.layout(), { text, align: $("align").value, valign: $("valign").value, transition: { strategy: $("transition").value } });
    const d = reply.data;
    if (reply.status === 0) { note.textContent = "The board cannot be reached: no preview now, but Send keeps the message and sends it later."; return; }
    if (d.error) { note.replaceChildren(...problem(text, d.error)); return; }
    flaps = d.codes.length * d.codes[0].length;
    flipSeconds = d.flipSeconds ?? null;
    count();
    note.replaceChildren(...warningList(d.warnings || []));
    $("preview").replaceChildren();
    new BoardView($("preview"), "Preview", d.codes.length, d.codes[0].length, await loadGlyphs(), d.flap62).show(d.codes);
  }, 200);
}

// "line 1, position 1: '👍' shown as 'OK'" as a short list, "👍 shown as OK", colours drawn.
function warningList(warnings) {
  if (!warnings.length) return [];
  const list = document.createElement("ul");
  list.className = "warnings";
  for (const warning of warnings) {
    const replaced = /'(.+?)' shown as '(.*)'$/u.exec(warning);
    const unknown = /'(.+?)' is not on the board: shown as '(.*)'$/u.exec(warning);
    const li = document.createElement("li");
    li.textContent = replaced ? `${replaced[1]} shown as ${readable(replaced[2]).trim() || "a blank"}`
      : unknown ? `${unknown[1]} cannot be shown: ${unknown[2] === " " ? "a blank" : unknown[2]} instead` : warning;
    list.append(li);
  }
  return [list];
}

// The problem, and its line with the character that cannot be shown marked.
function problem(text, error) {
  if (!error.line) return [document.createTextNode(error.reason)];
  const line = [...(text.split("\n")[error.line - 1] || "")];
  const at = error.position - 1;
  const shown = document.createElement("code");
  const mark = document.createElement("mark");
  mark.textContent = line[at] ?? "";
  shown.append(line.slice(0, at).join(""), mark, line.slice(at + 1).join(""));
  return [document.createTextNode(`Line ${error.line}, character ${error.position}: ${error.reason} `), shown];
}
