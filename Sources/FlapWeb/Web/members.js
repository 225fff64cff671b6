// The owner's Members section: who is invited, a link (and its QR code) to sign each person's
// phone in, removing someone, and pairing the owner's own phone.
import { $, api, fill, item, onSubmit, refused, tell } from "/web/api.js";

// Shows a link with its QR code (an SVG flapd drew) and when it stops working.
function showLink(where, link, phone) {
  const card = document.createElement("div");
  card.className = "qr-card";
  if (link.qrCode) {
    const svg = new DOMParser().parseFromString(link.qrCode, "image/svg+xml").documentElement;
    const figure = document.createElement("figure");
    figure.className = "qr";
    figure.append(document.importNode(svg, true));
    card.append(figure);
  }
  const text = document.createElement("p");
  const anchor = Object.assign(document.createElement("a"), { href: link.url, textContent: "the link" });
  text.append(`Scan this with ${phone}, or open `, anchor, " on it",
    `. It works once, until ${new Date(link.expiresAt).toLocaleString([], { dateStyle: "short", timeStyle: "short" })}.`);
  card.append(text);
  where.replaceChildren(card);
}

export async function refreshMembers() {
  const reply = await api("GET", "/v1/members");
  if (reply.status !== 200) return;
  fill($("members"), reply.data.members.map((m) => {
    const li = item(m.name, `sends as ${m.sender}`, [
      ["New link", async () => {
        const link = await api("POST", `/v1/members/${encodeURIComponent(m.id)}/invitation`, {});
        if (link.status === 201) showLink($("member-link"), link.data, `${m.name}'s phone`); else tell($("member-note"), refused(link));
      }],
      ["Remove", async () => {
        await api("DELETE", `/v1/members/${encodeURIComponent(m.id)}`);
        tell($("member-note"), `${m.name} is removed: their phone and keys no longer work.`);
        refreshMembers();
      }],
    ]);
    li.querySelectorAll("button")[1].setAttribute("aria-label", `Remove ${m.name}`);
    return li;
  }), "No one yet: invite the household, each with a sender of their own.");
}

export function setUpMembers() {
  onSubmit($("invite"), async () => {
    const name = $("member-name").value.trim();
    const sender = $("member-sender").value.trim();
    const reply = await api("POST", "/v1/members", sender ? { name, sender } : { name });
    if (reply.status === 201) {
      $("invite").reset();
      tell($("member-note"), `${reply.data.member.name} sends as ${reply.data.member.sender}.`);
      showLink($("member-link"), reply.data.invitation, `${reply.data.member.name}'s phone`);
      refreshMembers();
    } else {
      tell($("member-note"), refused(reply));
    }
  });
  $("pair").addEventListener("click", async () => {
    const reply = await api("POST", "/v1/pairing", {});
    if (reply.status === 201) showLink($("member-link"), reply.data, "your phone"); else tell($("member-note"), refused(reply));
  });
  refreshMembers();
}
