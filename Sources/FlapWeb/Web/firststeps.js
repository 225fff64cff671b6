// The owner's first steps, in the order FiestaBoard's wizard takes them: choose the display,
// connect it and see a test pattern, add a source, send a hello. Each is ticked by what the board
// says (its panel's driver, its sources) or by what was done on this device (the pattern, the
// hello); the list stays until all four are done, or it is hidden.
import { $, api, E } from "/web/api.js";

const HIDDEN = "vestawidget-first-steps-hidden";
const DONE_HERE = "vestawidget-first-steps-done";

function doneHere() {
  try { return JSON.parse(localStorage.getItem(DONE_HERE) || "[]"); } catch { return []; }
}

function markDone(step) {
  const done = new Set(doneHere());
  done.add(step);
  localStorage.setItem(DONE_HERE, JSON.stringify([...done]));
  refresh();
}

// Which steps are done: the display once the first panel drives something real (not the
// simulated panel flapd starts with), a source once the board has one.
async function done() {
  const reply = await api(E.settings());
  const settings = reply.status === 200 ? reply.data.settings : [];
  const driver = settings.find((s) => s.key === "panel[0].driver");
  const steps = new Set(doneHere());
  if (driver?.value && driver.value !== "simulated") steps.add("display");
  if (settings.some((s) => s.key.startsWith("source["))) steps.add("source");
  return steps;
}

async function refresh() {
  const section = $("first-steps");
  if (localStorage.getItem(HIDDEN)) { section.hidden = true; return; }
  const steps = await done();
  let next = null;
  for (const item of section.querySelectorAll("li[data-step]")) {
    const isDone = steps.has(item.dataset.step);
    item.classList.toggle("done", isDone);
    item.querySelector(".state").textContent = isDone ? "done" : "";
    if (!isDone && !next) next = item;
    item.classList.toggle("next", item === next);
  }
  $("first-steps-note").textContent = next ? "" : "Your board is set up.";
  section.hidden = false;
}

function go(section, focus) {
  $(section).scrollIntoView();
  if (focus) $(focus).focus();
}

const actions = {
  display: () => go("hardware-section", "hardware-search"),
  connect: () => {
    const pattern = $("hardware-test-pattern");
    if (pattern) { pattern.scrollIntoView(); pattern.click(); } else go("hardware-section", "hardware-search");
  },
  source: () => {
    const choice = $("settings-new-kind");
    const option = [...choice.options].find((o) => o.text.startsWith("source: "));
    if (option) { choice.value = option.value; choice.dispatchEvent(new Event("change")); }
    go("settings-new-kind", "settings-new-kind");
  },
  hello: () => {
    if (!$("text").value) {
      $("text").value = "HELLO";
      $("text").dispatchEvent(new Event("input", { bubbles: true }));  // the preview and the Send button follow it
    }
    go("compose", "text");
  },
};

export function setUpFirstSteps() {
  for (const button of $("first-steps").querySelectorAll("button[data-go]")) {
    button.addEventListener("click", () => actions[button.dataset.go]());
  }
  $("first-steps-hide").addEventListener("click", () => { localStorage.setItem(HIDDEN, "1"); $("first-steps").hidden = true; });
  window.addEventListener("settings-changed", refresh);
  window.addEventListener("settings-applied", refresh);
  window.addEventListener("test-pattern-shown", () => markDone("connect"));
  window.addEventListener("message-sent", () => markDone("hello"));
  refresh();
}
