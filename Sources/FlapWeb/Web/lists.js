// The quick messages, each sender's slot with its time left (cleared only after a few seconds
// in which Undo takes it back), what was sent for later, what waits on this device to be sent,
// and the latest receipts.
import { $, ago, api, boardText, E, fill, follow, isMember, item, readable, refused, senderLabel, session, summary, tell, until, whoseMessage } from "/web/api.js";
import { discard, waiting } from "/web/outbox.js";

// How long a cleared message can still be taken back.
const UNDO_SECONDS = 8;
const clearing = new Map();

function clearSoon(sender) {
  clearing.set(sender, setTimeout(() => clearNow(sender), UNDO_SECONDS * 1000));
  refreshLists();
}

async function clearNow(sender) {
  clearTimeout(clearing.get(sender));
  clearing.delete(sender);
  await api(E.clearSlot(sender));
  refreshLists();
}

function undoClear(sender) {
  clearTimeout(clearing.get(sender));
  clearing.delete(sender);
  refreshLists();
}

// A page closed within the few seconds still clears what was cleared.
window.addEventListener("pagehide", () => {
  for (const sender of clearing.keys()) {
    const { method, target } = E.clearSlot(sender);
    fetch(target, { method, credentials: "same-origin", keepalive: true });
  }
});

// "Keep the board": what the first panel shows now, whoever put it there, as a quick message.
export function setUpKeepBoard() {
  $("keep-board").addEventListener("click", async () => {
    const name = $("keep-name").value.trim();
    if (!name) { tell($("keep-receipt"), "Give the quick message a name first."); $("keep-name").focus(); return; }
    const reply = await api(E.saveTemplateFromBoard(name), {});
    tell($("keep-receipt"), reply.status < 300 ? `Kept what the board shows as ${name}` : refused(reply));
    refreshLists();
  });
}

export async function refreshLists() {
  const member = isMember();
  const templates = member ? [] : (await api(E.templates())).data.templates || [];
  fill($("templates"), templates.map((t) => item(t.name, t.fields.text ? readable(t.fields.text.replace(/\n/g, " / ")) : t.fields.codes ? boardText(t.fields.codes) : "a layout", [
    ["Send", async () => {
      const reply = await api(E.sendTemplate(t.name), {});
      if (reply.status < 300) follow(reply.data.id, $("receipt"), refreshLists); else tell($("receipt"), refused(reply));
      setTimeout(refreshLists, 300);
    }],
    ["Delete", async () => { await api(E.deleteTemplate(t.name)); refreshLists(); }],
  ])), "None yet.");

  const slots = (await api(E.slots())).data.slots || [];
  fill($("slots"), slots.map((slot) => {
    const name = senderLabel(slot);
    // As the board shows it: a painting or a VBML layout by its letters and colours.
    const said = slot.content === "text" ? readable(slot.text.join(" / ").trim()) : boardText(slot.codes);
    if (clearing.has(slot.sender)) {
      const li = item(name, `${said} · cleared in a few seconds`, [["Undo", () => undoClear(slot.sender)]]);
      li.querySelector("button").setAttribute("aria-label", `Undo clearing ${name}`);
      return li;
    }
    // A member clears only their own message.
    const mine = !member || slot.sender === session.member.sender;
    // A temporary message covers the others: ending it gives the board back at once.
    if (slot.duration) {
      return item(`${name} (for now)`, `${said} · then the board goes back · ${until(slot.expiresAt)}`,
        mine ? [["End now", async () => { await api(E.endTemporary()); refreshLists(); }]] : []);
    }
    return item(name, `${said} · ${until(slot.expiresAt)}`, mine ? [["Clear", () => clearSoon(slot.sender)]] : []);
  }), "No messages.");
  showShownBy(slots);

  const kept = await waiting();
  $("outbox-title").hidden = $("outbox").hidden = !kept.length;
  fill($("outbox"), kept.map((entry) => item(summary(entry.body), `waiting since ${new Date(entry.at).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" })}: sent when the board can be reached`, [
    ["Discard", async () => { await discard(entry.key); refreshLists(); }],
  ])), "");

  const scheduled = member ? [] : (await api(E.scheduled())).data.scheduled || [];
  fill($("scheduled"), scheduled.map((m) => item(senderLabel(m),
    `${m.text ? readable(m.text.replace(/\n/g, " / ")) : m.codes ? boardText(m.codes) : "a layout"} · at ${new Date(m.notBefore).toLocaleString([], { weekday: "short", hour: "numeric", minute: "2-digit" })}`, [
      ["Cancel", async () => { await api(E.cancelMessage(m.id)); refreshLists(); }],
    ])), "Nothing waiting.");

  const receipts = (await api(E.receipts({ limit: 8 }))).data.receipts || [];
  fill($("receipts"), receipts.map((r) => {
    const li = item(r.text ? readable(r.text) : r.id, `${senderLabel(r)}: ${r.status} · ${ago(r.receivedAt)}${r.reason ? ` · ${r.reason}` : ""}`);
    li.classList.add(`status-${r.status}`);
    return li;
  }), "Nothing sent yet.");
}

// Under the board: whose message each panel shows, by the slots' names.
async function showShownBy(slots) {
  const board = await api(E.board());
  const names = new Map(slots.map((slot) => [slot.id, whoseMessage(slot)]));
  const shown = (board.data.panels || []).map((panel) => {
    const who = names.get(panel.message);
    const prefix = board.data.panels.length > 1 ? `${panel.id}: ` : "";
    return prefix + (who ? who : panel.message ? "a message no longer in a slot" : "nothing sent");
  });
  $("shown-by").textContent = shown.length ? `Showing ${shown.join("; ")}.` : "";
}
