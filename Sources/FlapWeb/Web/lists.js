// The quick messages, each sender's slot with its time left, what was sent for later, and the
// latest receipts.
import { $, ago, api, fill, follow, item, refused, tell, until } from "/web/api.js";

export async function refreshLists() {
  const templates = (await api("GET", "/v1/templates")).data.templates || [];
  fill($("templates"), templates.map((t) => item(t.name, t.fields.text ? t.fields.text.replace(/\n/g, " / ") : "(painting)", [
    ["Send", async () => {
      const reply = await api("POST", `/v1/templates/${encodeURIComponent(t.name)}/send`, {});
      if (reply.status < 300) follow(reply.data.id, $("receipt"), refreshLists); else tell($("receipt"), refused(reply));
      setTimeout(refreshLists, 300);
    }],
    ["Delete", async () => { await api("DELETE", `/v1/templates/${encodeURIComponent(t.name)}`); refreshLists(); }],
  ])), "None yet.");

  const slots = (await api("GET", "/v1/slots")).data.slots || [];
  fill($("slots"), slots.map((slot) => item(slot.senderName || slot.sender, `${slot.content === "text" ? slot.text.join(" / ").trim() : "(painting)"} · ${until(slot.expiresAt)}`, [
    ["Clear", async () => { await api("DELETE", `/v1/slots/${encodeURIComponent(slot.sender)}`); refreshLists(); }],
  ])), "No messages.");

  const scheduled = (await api("GET", "/v1/scheduled")).data.scheduled || [];
  fill($("scheduled"), scheduled.map((m) => item(m.senderName || m.sender,
    `${m.text ? m.text.replace(/\n/g, " / ") : "(painting)"} · at ${new Date(m.notBefore).toLocaleString()}`, [
      ["Cancel", async () => { await api("DELETE", `/v1/messages/${encodeURIComponent(m.id)}`); refreshLists(); }],
    ])), "Nothing waiting.");

  const receipts = (await api("GET", "/v1/receipts?limit=8")).data.receipts || [];
  fill($("receipts"), receipts.map((r) => {
    const li = item(r.text || r.id, `${r.sender}: ${r.status} · ${ago(r.receivedAt)}${r.reason ? ` · ${r.reason}` : ""}`);
    li.classList.add(`status-${r.status}`);
    return li;
  }), "Nothing sent yet.");
}
