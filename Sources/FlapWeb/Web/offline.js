// The app without flapd: a badge saying so and when the board was last seen, and the app's
// service worker registered so the page opens with no network at all.
import { $ } from "/web/api.js";

export function registerWorker() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

const clock = (date) => date.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });

// Shows or hides the badge. `seenAt`: when the board shown was fetched (a Date), if known.
export function showOffline(offline, seenAt) {
  const badge = $("offline");
  if (!badge) return;
  badge.hidden = !offline;
  if (offline) badge.textContent = seenAt ? `Offline: the board as seen at ${clock(seenAt)}` : "Offline";
}
