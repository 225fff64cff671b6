// The installed app is a share target (manifest.webmanifest's share_target): Android's share
// sheet opens /share?title=…&text=…&url=…, and the composer comes up filled in, as the signed-in
// person, with its preview and warnings, to send or change.
import { $, tell } from "/web/api.js";

export function shared() {
  if (location.pathname !== "/share") return;
  const given = new URLSearchParams(location.search);
  const [title, text, url] = ["title", "text", "url"].map((name) => (given.get(name) || "").trim());
  // Apps put the link in the text, the url or both: it is written once.
  const parts = [title, text];
  if (url && !text.includes(url)) parts.push(url);
  const message = parts.filter((part, index) => part && parts.indexOf(part) === index).join(" ");
  history.replaceState(null, "", "/");
  if (!message) return;
  const field = $("text");
  field.value = message;
  field.dispatchEvent(new Event("input"));
  field.focus();
  field.scrollIntoView({ block: "center" });
  tell($("receipt"), "Shared to the board: check the preview, then Send.");
}
