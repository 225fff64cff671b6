// An invitation or pairing link (/join#TOKEN): the token, kept in the fragment so it never
// reaches a server log, is traded once for this browser's session; then the app opens.
import { $, api, E } from "/web/api.js";

const token = location.hash.slice(1);
// The link is used up: it leaves the address bar and the history.
history.replaceState(null, "", "/join");

async function join() {
  if (!token) {
    $("join-state").textContent = "This link has no invitation in it. Ask the board's owner for a new one.";
    return;
  }
  const reply = await api(E.signIn(), { invitation: token });
  if (reply.status === 200) {
    const who = reply.data.member ? `Welcome, ${reply.data.member.name}.` : "This phone is signed in as the board's owner.";
    $("join-state").textContent = `${who} Opening the board…`;
    location.replace("/");
    return;
  }
  $("join-state").textContent = reply.status === 0 ? "The board cannot be reached from here: are you on the same network?"
    : reply.data.error || "The link was refused.";
  $("join-open").hidden = false;
}

join();
