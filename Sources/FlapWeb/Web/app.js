// The page's frame: signing in and out, then the live boards and every part of the page.
import { $, api, E, follow, loadGlyphs, refused, session, summary, tell } from "/web/api.js";
import { setUpMembers } from "/web/members.js";
import { setUpHardware } from "/web/hardware.js";
import { setUpSettings } from "/web/settings.js";
import { setUpFirstSteps } from "/web/firststeps.js";
import { BoardView } from "/web/board.js";
import { setUpCompose } from "/web/compose.js";
import { refreshLists, setUpKeepBoard } from "/web/lists.js";
import { setUpPaint } from "/web/paint.js";
import { watchRoom } from "/web/room.js";
import { setUpPresence, watchPresence } from "/web/presence.js";
import { shared } from "/web/share.js";
import { refreshStatus, setUpControls, setUpSound } from "/web/status.js";
import { setUpNumbering } from "/web/numbering.js";
import { registerWorker, showOffline } from "/web/offline.js";
import { flush } from "/web/outbox.js";

// What waited on this device goes out when flapd answers again; its receipt is followed.
function sendWaiting() {
  flush((entry, reply) => {
    if (reply.status < 300) follow(reply.data.id, $("receipt"), refreshLists);
    else tell($("receipt"), `${summary(entry.body)} was refused: ${refused(reply)}`);
    refreshLists();
  });
}
window.addEventListener("online", sendWaiting);

let events = null, started = false;
const views = new Map();

async function start() {
  registerWorker();
  const signedIn = await api(E.session());
  // flapd unreachable and nothing kept from an earlier visit: say so, and wait for it.
  if (signedIn.status === 0) { showOffline(true); setTimeout(start, 3000); return; }
  if (signedIn.data.signedIn) { signedInAs(signedIn.data); open(); return; }
  // A board no one owns yet is claimed with the code it shows.
  const setup = await api(E.setupState());
  if (setup.status === 200 && setup.data.claimed === false) setUpPage(); else signInPage(signedIn.data.ended?.error);
}

function setUpPage() {
  $("app").hidden = true;
  $("sign-in").hidden = true;
  $("set-up").hidden = false;
  $("setup-code").focus();
}

$("set-up-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const reply = await api(E.claimBoard(), { code: $("setup-code").value });
  $("setup-code").value = "";
  if (reply.status === 200) {
    $("set-up-error").textContent = "";
    $("set-up").hidden = true;
    signedInAs(reply.data);
    // From another device over plain HTTP: first the board's authority, then HTTPS.
    if (location.protocol === "http:" && !loopback(location.hostname)) $("go-secure").hidden = false; else open();
  } else if (reply.status === 403) {
    // Claimed meanwhile (by another phone, or with the key): sign in as anyone else would.
    $("set-up").hidden = true;
    signInPage(reply.data.error);
  } else $("set-up-error").textContent = reply.data.error || "The code was refused.";
});

function loopback(host) { return host === "localhost" || host.startsWith("127.") || host === "[::1]"; }

// A pairing link signs this phone in on the HTTPS port, as `flapctl pair`'s does.
$("go-secure-now").addEventListener("click", async () => {
  const reply = await api(E.pair(), {});
  if (reply.status === 201) location.href = reply.data.url; else $("go-secure-error").textContent = refused(reply);
});
$("go-secure-later").addEventListener("click", () => { $("go-secure").hidden = true; open(); });

// The owner removed this phone's member: said at once (the live stream, or any refused request),
// with what to do, instead of a page that fails quietly.
function signedOut(info) {
  if (events) events.close();
  signInPage(info.error);
}
window.addEventListener("signed-out", (event) => signedOut(event.detail));

// A member's page sends as their sender and offers only what a member may do.
function signedInAs(state) {
  session.role = state.role || "owner";
  session.member = state.member || null;
  document.body.dataset.role = session.role;
  if (session.member) {
    $("sender").value = session.member.sender;
    $("sender").readOnly = true;
  }
}

function signInPage(why) {
  $("app").hidden = true;
  $("set-up").hidden = true;
  $("sign-out").hidden = true;
  $("sign-in").hidden = false;
  $("sign-in-why").textContent = why || "";
  $("sign-in-why").hidden = !why;
  if (!why) $("key").focus();
}

$("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const reply = await api(E.signIn(), { key: $("key").value });
  $("key").value = "";
  if (reply.status === 200) { $("sign-in-error").textContent = ""; signedInAs(reply.data); open(); }
  else $("sign-in-error").textContent = reply.data.error || "The key was refused.";
});

$("sign-out").addEventListener("click", async () => {
  await api(E.signOut());
  if (events) events.close();
  signInPage();
});

async function open() {
  $("sign-in").hidden = true;
  $("go-secure").hidden = true;
  $("set-up").hidden = true;
  $("app").hidden = false;
  $("sign-out").hidden = false;
  const glyphs = await loadGlyphs();
  const board = await api(E.board());
  const boards = board.data.panels || [];
  let seenAt = board.offline ? board.seenAt : new Date();
  showOffline(board.offline, seenAt);
  $("boards").replaceChildren();
  views.clear();
  for (const panel of boards) {
    const view = new BoardView($("boards"), panel.id, panel.rows, panel.columns, glyphs, panel.flap62);
    view.show(panel.codes);
    views.set(panel.id, view);
  }
  // For measuring: the time from opening the page to the boards drawn (scripts/measure-web).
  performance.mark("first-board");
  // A reconnect starts with the current board, never a replay.
  events = new EventSource(E.events().target);
  events.addEventListener("board", (event) => { const d = JSON.parse(event.data); views.get(d.panel)?.show(d.codes); seenAt = new Date(); });
  events.addEventListener("open", () => { showOffline(false); sendWaiting(); });
  events.addEventListener("error", () => {
    showOffline(true, seenAt);
    // flapd refused the stream (a closed one is not retried): signed out, or a new flapd.
    if (events.readyState === EventSource.CLOSED) setTimeout(start, 3000);
  });
  events.addEventListener("plan", (event) => { const d = JSON.parse(event.data); views.get(d.panel)?.play(d); });
  events.addEventListener("signed-out", (event) => signedOut(JSON.parse(event.data)));
  watchPresence(events);
  if (!started) {
    started = true;
    const changed = () => { refreshLists(); };
    await setUpCompose(changed);
    setUpPresence();
    shared();
    if (boards.length) await setUpPaint(boards[0].rows, boards[0].columns, boards[0].flap62, changed);
    setUpSound();
    setUpControls();
    if (session.role === "owner") { setUpMembers(); setUpKeepBoard(); setUpHardware(); setUpSettings(); setUpFirstSteps(); setUpNumbering(); }
    watchRoom();
    setInterval(() => { if (!$("app").hidden) { refreshLists(); refreshStatus(); sendWaiting(); } }, 5000);
  }
  refreshLists();
  refreshStatus();
}

start();
