// The owner's Members section: who is invited, a link (and its QR code) to sign each person's
// phone in, removing someone (confirmed, with their message kept or cleared, and undone for ten
// minutes), and pairing the owner's own phone.
import { $, api, E, fill, item, onSubmit, refused, tell } from "/web/api.js";

// A QR code flapd drew (SVG text) as a figure of the page.
function qrFigure(svgText) {
  const figure = document.createElement("figure");
  figure.className = "qr";
  figure.append(document.importNode(new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement, true));
  return figure;
}

// Shows a link with its QR code (an SVG flapd drew) and when it stops working.
function showLink(where, link, phone) {
  const card = document.createElement("div");
  card.className = "qr-card";
  if (link.qrCode) card.append(qrFigure(link.qrCode));
  const text = document.createElement("p");
  const anchor = Object.assign(document.createElement("a"), { href: link.url, textContent: "the link" });
  text.append(`Scan this with ${phone}, or open `, anchor, " on it",
    `. It works once, until ${new Date(link.expiresAt).toLocaleString([], { dateStyle: "short", timeStyle: "short" })}.`);
  card.append(text);
  const others = (link.worksUnder || []).slice(1);
  if (others.length) {
    const also = document.createElement("p");
    also.className = "muted";
    also.textContent = `If ${link.worksUnder[0]} does not open on the phone, the board also answers to ${others.join(", ")}.`;
    card.append(also);
  }
  where.replaceChildren(card);
}

// A member's new key, for their iPhone shortcut or scripts: shown this once (flapd keeps only
// its digest), with a button that copies it.
function showKey(where, key, name) {
  const card = document.createElement("div");
  card.className = "qr-card";
  const words = document.createElement("p");
  words.textContent = `${name}'s key, shown only now: give it to them for their shortcut or scripts. Removing ${name} stops it.`;
  const code = Object.assign(document.createElement("code"), { id: "member-key", textContent: key });
  const copy = Object.assign(document.createElement("button"), { type: "button", textContent: "Copy" });
  copy.addEventListener("click", () => navigator.clipboard?.writeText(key).then(() => { copy.textContent = "Copied"; }, () => {}));
  card.append(words, code, copy);
  where.replaceChildren(card);
}

const clock = (date) => new Date(date).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });

// Removing asks first, in the person's item: their phone and keys stop at once, and their message
// on the board stays or goes, as the owner chooses.
function confirmRemoval(li, m) {
  const box = document.createElement("div");
  box.className = "confirm";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", `Remove ${m.name}?`);
  const words = document.createElement("p");
  words.textContent = `Remove ${m.name}? Their phone and keys stop working at once. Their message on the board:`;
  const remove = (message) => async () => {
    const reply = await api(E.removeMember(m.id, { message: message }));
    if (reply.status !== 200) { tell($("member-note"), refused(reply)); return; }
    tell($("member-note"), `${m.name} is removed: their phone and keys no longer work, and their message ${message === "clear" ? "was cleared" : "stays on the board"}. Undo until ${clock(reply.data.undoUntil)}.`);
    refreshMembers();
  };
  const buttons = [["Keep it", remove("keep")], ["Clear it", remove("clear")], ["Cancel", () => { box.remove(); li.querySelector("button[data-remove]")?.focus(); }]]
    .map(([text, action]) => Object.assign(document.createElement("button"), { type: "button", textContent: text, onclick: action }));
  buttons[0].setAttribute("aria-label", `Remove ${m.name}, keep their message`);
  buttons[1].setAttribute("aria-label", `Remove ${m.name}, clear their message`);
  box.append(words, ...buttons);
  li.querySelector(".confirm")?.remove();
  li.append(box);
  buttons[0].focus();
}

export async function refreshMembers() {
  const reply = await api(E.members());
  if (reply.status !== 200) return;
  const members = reply.data.members.map((m) => {
    const li = item(m.name, `sends as ${m.sender}`, [
      ["New link", async () => {
        const link = await api(E.inviteMember(m.id), {});
        if (link.status === 201) showLink($("member-link"), link.data, `${m.name}'s phone`); else tell($("member-note"), refused(link));
      }],
      ["Key", async () => {
        const key = await api(E.replaceMemberKey(m.id), {});
        if (key.status === 201) showKey($("member-link"), key.data.key, m.name); else tell($("member-note"), refused(key));
      }],
      ["Remove", () => confirmRemoval(li, m)],
    ]);
    li.querySelectorAll("button")[2].dataset.remove = "";
    return li;
  });
  const removed = (reply.data.removed || []).map((r) => item(r.name,
    `removed at ${clock(r.removedAt)}; their message ${r.message === "cleared" ? "was cleared" : "stays on the board"} · undo until ${clock(r.undoUntil)}`, [
      ["Undo", async () => {
        const back = await api(E.restoreMember(r.id));
        tell($("member-note"), back.status === 200 ? `${r.name} is back: their phone and keys work again.` : refused(back));
        refreshMembers();
      }],
    ]));
  fill($("members"), [...members, ...removed], "No one yet: invite the household, each with a sender of their own.");
}

// The Widgets section's TV links (/tv with the viewer key) and their QR codes, drawn when
// opened: one for each panel when there are several (a browser panel is a TV's own).
async function showTVLink() {
  const reply = await api(E.viewerLink());
  const where = $("tv-link");
  if (reply.status !== 200) { where.textContent = refused(reply); return; }
  const links = reply.data.panels?.length ? reply.data.panels : [{ url: reply.data.url, qrCode: reply.data.qrCode }];
  where.replaceChildren(...links.map((each) => {
    const card = document.createElement("div");
    card.className = "qr-card";
    const words = links.length === 1 ? "The board on a TV"
      : each.driver === "browser" ? `The TV's own panel "${each.panel}"` : `Panel "${each.panel}" on a TV`;
    // The name first, so each code is read as the one below its name.
    card.append(Object.assign(document.createElement("a"), { href: each.url, textContent: words, target: "_blank" }));
    if (each.qrCode) card.append(qrFigure(each.qrCode));
    return card;
  }));
}

export function setUpMembers() {
  $("tv").addEventListener("toggle", () => { if ($("tv").open) showTVLink(); });
  onSubmit($("invite"), async () => {
    const name = $("member-name").value.trim();
    const sender = $("member-sender").value.trim();
    const reply = await api(E.addMember(), sender ? { name, sender } : { name });
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
    const reply = await api(E.pair(), {});
    if (reply.status === 201) showLink($("member-link"), reply.data, "your phone"); else tell($("member-note"), refused(reply));
  });
  $("new-setup-code").addEventListener("click", async () => {
    const reply = await api(E.newSetupCode(), {});
    tell($("setup-note"), reply.status === 202 ? reply.data.shown : refused(reply));
  });
  refreshMembers();
}
