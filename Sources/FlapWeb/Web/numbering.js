// A wall of Universal Firmware's modules numbered from where they hang: flapd asks each place who
// answers and listens for the modules with no number; one at a time shows "?" on the wall, and
// the owner taps where it hangs on the wall's grid, which gives it that place's number. A module
// swapped for a new one is numbered the same way, alone.
import { $, api, E, refused } from "/web/api.js";

let open = null;

function say(text) {
  $("numbering-note").textContent = text;
}

// The wall's places as buttons, row by row: a number where a module answers, a tap target where none does.
function drawGrid(numbering) {
  const grid = $("numbering-grid");
  grid.style.gridTemplateColumns = `repeat(${numbering.columns}, 1fr)`;
  grid.replaceChildren(...numbering.places.map((place) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.row = place.row;
    button.dataset.column = place.column;
    button.textContent = place.answered ? String(place.id) : "";
    button.className = place.answered ? "numbered" : "";
    button.setAttribute("aria-label", `Row ${place.row}, column ${place.column}${place.answered ? `: module ${place.id}` : ": no module yet"}`);
    button.addEventListener("click", () => tap(place));
    return button;
  }));
}

// Tells where things stand, and marks the next module with no place when none shows the mark.
async function show(numbering) {
  if (!open || open.panel !== numbering.panel) return;
  open.state = numbering;
  drawGrid(numbering);
  const empty = numbering.places.filter((p) => !p.answered).length;
  if (numbering.complete) {
    say(open.placed ? "Every place answers: the board shows READY." : "Every place answers: nothing to number.");
    return;
  }
  const marked = numbering.unplaced.find((m) => m.marked);
  if (marked) {
    say(`A module shows ? on the wall: tap where it hangs (${empty} ${empty === 1 ? "place" : "places"} to go).`);
    return;
  }
  const next = numbering.unplaced[0];
  if (!next) {
    say(`Listening for modules with no number (each says so every 10 to 15 seconds): ${empty} ${empty === 1 ? "place" : "places"} to go.`);
    return;
  }
  say("Marking a module…");
  open.busy = true;
  const reply = await api(E.markModule(numbering.panel), { serial: next.serial });
  open.busy = false;
  if (reply.status !== 200) { say(refused(reply)); return; }
  await show(reply.data);
}

async function tap(place) {
  const marked = open?.state?.unplaced.find((m) => m.marked);
  if (!marked || open.busy) return;
  open.busy = true;
  say(`Giving it row ${place.row}, column ${place.column}…`);
  const reply = await api(E.placeModule(open.panel), { serial: marked.serial, row: place.row, column: place.column });
  open.busy = false;
  if (reply.status !== 200) { say(refused(reply)); return; }
  open.placed = true;
  await show(reply.data);
}

// Opens the numbering of `panel` under the status's panels, listening until it is closed.
export async function numberModules(panel) {
  close();
  open = { panel: panel.id, state: null, busy: false, placed: false };
  const box = $("numbering");
  box.hidden = false;
  $("numbering-title").textContent = `Number the modules of ${panel.id === "main" ? "the board" : `board ${panel.id}`}`;
  $("numbering-grid").replaceChildren();
  say("Asking each place who answers…");
  box.scrollIntoView({ block: "nearest" });
  const reply = await api(E.numbering(panel.id, { ask: "true" }));
  if (reply.status !== 200) { say(refused(reply)); return; }
  await show(reply.data);
  const mine = open;
  mine.timer = setInterval(async () => {
    if (open !== mine || mine.busy || mine.state?.complete || mine.state?.unplaced.some((m) => m.marked)) return;
    const latest = await api(E.numbering(panel.id));
    if (latest.status === 200 && open === mine && !mine.busy) await show(latest.data);
  }, 2000);
}

function close() {
  if (open?.timer) clearInterval(open.timer);
  open = null;
  $("numbering").hidden = true;
}

export function setUpNumbering() {
  $("numbering-close").addEventListener("click", close);
}
