// Health at a glance: each panel (its faulty modules, its quiet hours), calibration nudges for
// directly driven panels, the sound's settings, the storage when it is in trouble, the clock and
// the schedules, the links to the broker, the sensors and real Vestaboards, and the content
// sources with what they give the board now and the triggers on them.
import { $, ago, api, E, fill, isMember, item, onSubmit, refused } from "/web/api.js";
import { numberModules } from "/web/numbering.js";

let soundLoaded = false;

// A line of status in a household's words, with the technical detail one tap away.
function plain(label, words, detail, buttons = []) {
  const li = item(label, words, buttons);
  if (detail) {
    const more = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "Details";
    const text = document.createElement("p");
    text.className = "muted";
    text.textContent = detail;
    more.append(summary, text);
    li.append(more);
  }
  return li;
}

const time = (date) => new Date(date).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
const dayAndTime = (date) => new Date(date).toLocaleString([], { weekday: "long", hour: "numeric", minute: "2-digit" });
const dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const and = (words) => words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;

// When a schedule runs, as a household says it: "Weekdays at 7:00 AM", "Friday to Monday at 9:30 AM",
// "Tuesdays and Thursdays at 30 min after sunset" (times in the phone's own way of writing them).
function scheduleTitle(s) {
  if (s.cron) return `${s.name[0].toUpperCase()}${s.name.slice(1)} (by a cron rule)`;
  const days = s.weekdays || [0, 1, 2, 3, 4, 5, 6];
  const key = days.join();
  let on = { "0,1,2,3,4,5,6": "Every day", "1,2,3,4,5": "Weekdays", "0,6": "Weekends" }[key];
  // A run of three or more days in a row, across the week's end too: "Friday to Monday".
  const first = days.find((d) => !days.includes((d + 6) % 7));
  if (!on && days.length >= 3 && first !== undefined && days.every((_, i) => days.includes((first + i) % 7))) {
    on = `${dayNames[first]} to ${dayNames[(first + days.length - 1) % 7]}`;
  }
  on ??= and(days.map((d) => `${dayNames[d]}s`));
  const times = (s.times || []).map((t) => {
    const sun = /^(sunrise|sunset)(?:([+-])(\d+)([mh]))?$/i.exec(t);
    if (sun) return sun[2] ? `${sun[3]} ${sun[4] === "h" ? "h" : "min"} ${sun[2] === "+" ? "after" : "before"} ${sun[1].toLowerCase()}` : sun[1].toLowerCase();
    const [h, m] = t.split(":").map(Number);
    return new Date(2000, 0, 1, h, m).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  });
  return `${on} at ${and(times)}`;
}

// Checks of a wall's modules under way, by kind ("check", or "motor" for the motor test) and
// panel: what its button says meanwhile, kept here because the status list is drawn again every
// few seconds.
const checking = new Map();
const buttonWords = { check: "Check its modules", motor: "Test its motors", find: "Find its modules" };

function sayChecking(panel, text, busy, kind = "check") {
  checking.set(`${kind}:${panel.id}`, { text, busy });
  const button = [...$("panels").querySelectorAll(`button[data-${kind}]`)].find((b) => b.dataset[kind] === panel.id);
  if (button) Object.assign(button, { textContent: text, disabled: busy });
}

// Each module of a wall runs its own tests (Universal Firmware's Hall sensor test and health;
// or, asked for, its motor test of five turns, about 20 s a module), one after another with
// the count on the button; what they find shows as the panel's faults.
async function checkModules(panel, kind = "check") {
  const declared = await api(E.moduleCommands(panel.id));
  if (declared.status !== 200 || !(declared.data.commands || []).some((c) => c.name === "hall-test")) {
    sayChecking(panel, "These modules have no tests of their own", false, kind);
    return;
  }
  const count = panel.rows * panel.columns;
  const [silent, untested] = [[], []];
  const tests = kind === "motor" ? [{ command: "motor-test", turns: 5 }] : [{ command: "hall-test" }, { command: "diagnostics" }];
  for (let at = 0; at < count; at++) {
    const [row, column] = [Math.floor(at / panel.columns) + 1, (at % panel.columns) + 1];
    sayChecking(panel, kind === "motor" ? `Testing motor ${at + 1} of ${count} (about 20 s each)…` : `Checking module ${at + 1} of ${count}…`, true, kind);
    for (const test of tests) {
      const reply = await api(E.moduleCommand(panel.id), { row, column, ...test });
      // 422: its firmware (v7) has no tests of its own, which is no fault of the module.
      if (reply.status === 422) { untested.push(`row ${row}, column ${column}`); break; }
      if (reply.status !== 200) { silent.push(`row ${row}, column ${column}`); break; }
    }
  }
  const said = [silent.length && `Not answering: ${silent.join("; ")}.`,
    untested.length === count ? "These modules run firmware v7, which cannot test itself."
      : untested.length && `Firmware v7, which cannot test itself: ${untested.join("; ")}.`].filter(Boolean);
  sayChecking(panel, said.length ? said.join(" ") : buttonWords[kind], false, kind);
  if (!said.length) checking.delete(`${kind}:${panel.id}`);
  await refreshStatus();
}

// An SBB wall's modules found by asking addresses 0 to 31 (as flapctl modules find does; any
// range through it or the API) for their serial numbers, between boards, with how far the search
// has come on the button; then what answered, where the panel places each, and the places silent.
async function findModules(panel) {
  const count = 32;
  let searching = true;
  sayChecking(panel, `Asking address 1 of ${count}…`, true, "find");
  const poll = setInterval(async () => {
    const now = await api(E.moduleSearch(panel.id));
    const search = now.status === 200 && now.data.search;
    // An answer asked just before the search ended may come after it: it says nothing then.
    if (searching && search && !search.done) sayChecking(panel, `Asking address ${Math.min(search.asked + 1, count)} of ${count}…`, true, "find");
  }, 1000);
  const reply = await api(E.searchModules(panel.id), { first: 0, last: count - 1 });
  searching = false;
  clearInterval(poll);
  if (reply.status !== 200) {
    sayChecking(panel, refused(reply), false, "find");
    return;
  }
  const found = reply.data.found || [], silent = reply.data.silent || [];
  const where = (m) => m.row ? `address ${m.address} at row ${m.row}, column ${m.column}` : `address ${m.address}, which no place has`;
  const said = [found.length ? `Found ${found.length === 1 ? "one module" : `${found.length} modules`}: ${found.map(where).join("; ")}.`
    : `No module answered addresses 0 to ${count - 1}.`,
    silent.length && `No answer from ${silent.map((p) => `row ${p.row}, column ${p.column} (address ${p.address})`).join("; ")}.`,
    reply.data.problem && `The search stopped: ${reply.data.problem}.`].filter(Boolean);
  sayChecking(panel, said.join(" "), false, "find");
}

export async function refreshStatus() {
  const status = (await api(E.status())).data;
  fill($("panels"), (status.panels || []).map((p) => {
    const faults = p.faults.map((f) => `row ${f.row}, column ${f.column}: ${f.said || f.fault}`).join("; ");
    // What a module's own test found is said as it is; the controller's fault names stay in the details.
    const found = p.faults.filter((f) => f.said).map((f) => `Row ${f.row}, column ${f.column}: ${f.said}.`).join(" ");
    const state = !p.connected ? "Not answering: check its cable and power."
      : found ? found
      : faults ? `Working, but ${p.faults.length === 1 ? "one flap needs" : `${p.faults.length} flaps need`} attention.`
      : p.moving ? "Flipping to a new message." : "Showing its message.";
    const quiet = p.quietUntil ? ` Quiet until ${time(p.quietUntil)}.` : "";
    const checkable = p.driver === "rs485" && !isMember();
    const findable = p.driver === "sbb" && !isMember();
    const li = plain(p.id === "main" ? "The board" : `Board ${p.id}`, state + quiet,
      `${p.driver}, ${p.rows}×${p.columns}, ${p.connected ? (p.moving ? "moving" : "resting") : "not answering"}${faults ? ` · ${faults}` : ""}`,
      checkable ? [[buttonWords.check, () => checkModules(p)], [buttonWords.motor, () => checkModules(p, "motor")], ["Number its modules", () => numberModules(p)]]
        : findable ? [[buttonWords.find, () => findModules(p)]] : []);
    const buttons = li.querySelectorAll("button");
    const kinds = checkable ? ["check", "motor"] : findable ? ["find"] : [];
    for (const [button, kind] of kinds.map((kind, at) => [buttons[at], kind])) {
      if (!button) continue;
      button.dataset[kind] = p.id;
      const under = checking.get(`${kind}:${p.id}`);
      if (under) Object.assign(button, { textContent: under.text, disabled: under.busy });
    }
    return li;
  }), "No panels.");

  const links = [];
  // The disk holding flapd's state, only when it needs someone: full, read-only, a damaged file set aside.
  const storage = status.storage || {};
  if (storage.state && storage.state !== "ok") {
    links.push(plain("Storage", storage.state === "full" ? "The memory card is full: new messages cannot be kept until there is room."
      : "The memory card cannot be written to: new messages cannot be kept.", (storage.faults || []).map((f) => f.message).filter(Boolean).join(" · ") || storage.state));
  }
  for (const moved of storage.movedAside || []) {
    links.push(plain("Damaged file set aside", "A damaged file was put aside and flapd started afresh; nothing else is needed.", `${moved.path} → ${moved.movedTo} (${moved.reason})`));
  }
  // The version, as flapd --version and the package say it: what to give when asking for help.
  if (status.version) links.push(plain("VestaWidget", `Version ${status.version}.`, `flapd ${status.version}`));
  // Whether timed events (sent for later, schedules, quiet hours) may go by the clock, and why.
  if (status.time) {
    const later = status.time.scheduled ? ` ${status.time.scheduled} sent for later.` : "";
    links.push(plain("Clock", (status.time.trusted ? "The clock is right; timed messages go out on time." : "Waiting for the correct time; timed messages wait until then.") + later,
      `${status.time.trusted ? "trusted" : "not trusted yet"}: ${status.time.reason}`));
  }
  if (status.mqtt) {
    const words = status.mqtt.state === "connected" ? "Connected: home automations can write to the board."
      : status.mqtt.state === "refused" ? "The home automation link refused flapd's login: check its user name and password."
      : "Trying to reach the home automation link.";
    links.push(plain("Home automation (MQTT)", words, `${status.mqtt.broker}: ${status.mqtt.state} since ${ago(status.mqtt.since)}${status.mqtt.reason ? ` (${status.mqtt.reason})` : ""}`));
  }
  for (const board of status.boards || []) {
    const words = board.reachable === false ? "Cannot reach this Vestaboard; writes wait and are tried again." : `${board.queueDepth ? `${board.queueDepth} waiting to be written.` : "Up to date."}`;
    links.push(plain(`Vestaboard ${board.panel}${board.note ? `, Note ${board.note}` : ""}`, words, `${board.api} ${board.address}: ${board.reachable === false ? "unreachable" : board.reachable ? "reachable" : "not tried yet"}, ${board.queueDepth} waiting${board.lastError ? ` · ${board.lastError}` : ""}`));
  }
  // A member sees the board's health, not the owner's settings and sensors.
  const owner = !isMember();
  for (const sensor of owner ? (await api(E.sensors())).data.sensors || [] : []) {
    const straps = sensor.straps.map((s) => `${s.name} ${s.state}${s.battery != null ? ` (battery ${s.battery} %)` : ""}`).join(", ");
    const low = sensor.straps.filter((s) => s.battery != null && s.battery < 20).map((s) => s.name);
    const words = `${{ connected: "Reading heart rates.", searching: "Looking for straps.", "no-contact": "A strap is not touching skin." }[sensor.state] ?? "Not working right now."}${low.length ? ` Battery low: ${low.join(", ")}.` : ""}`;
    links.push(plain(`Heart-rate sensor ${sensor.name}`, words, `${sensor.state}${sensor.reason ? ` (${sensor.reason})` : ""}${straps ? ` · ${straps}` : ""}${sensor.remedy ? ` · ${sensor.remedy}` : ""}`));
  }
  if (owner && (status.boards || []).length) {
    for (const d of ((await api(E.queue({ limit: 5 }))).data.deliveries || []).filter((d) => d.state === "failed" || d.state === "conflict")) {
      links.push(plain(`A write to ${d.panel}`, d.state === "failed" ? "Could not be written." : "The board was changed by someone else meanwhile.", `${d.id}: ${d.state}${d.lastError ? `: ${d.lastError}` : ""}`, [
        ["Retry", async () => { await api(E.retryDelivery(d.id)); refreshStatus(); }],
      ]));
    }
  }
  for (const s of owner ? (await api(E.schedules())).data.schedules || [] : []) {
    const when = s.cron ? `cron ${s.cron}` : `${(s.days || ["daily"]).join(", ")} at ${(s.times || []).join(", ")}`;
    links.push(plain(scheduleTitle(s), `“${s.name}”: ${s.next ? `next ${dayAndTime(s.next)}.` : "not due again."}`,
      `${when}${s.timeZone ? ` (${s.timeZone})` : ""}${s.fromFile ? " · from the configuration file" : ""}`));
  }
  links.push(...await sourceLines(owner));
  fill($("links"), links, "Nothing else is set up: no home automation, sensors, Vestaboards or sources.");
  if (!owner) return;
  if (!soundLoaded) { soundLoaded = true; await loadSound(); await loadControls(); }
  await loadCalibration(status.panels || []);
}

async function loadSound() {
  const sound = (await api(E.sound())).data;
  $("mute").checked = sound.mute;
  $("volume").value = sound.volume;
  $("quiet").value = sound.quietHours || "";
  soundNote(sound.enabled, sound.state, sound.reason);
  for (const id of ["mute", "volume", "quiet"]) $(id).disabled = !sound.enabled;
  document.querySelector("#sound button").disabled = !sound.enabled;
}

// The sound's state in words; why it cannot play one tap away.
function soundNote(enabled, state, reason, prefix = "") {
  const note = $("sound-note");
  const words = !enabled ? "Sound is off in the configuration."
    : { idle: "The clack plays with each flap.", playing: "The clack plays with each flap.", muted: "The clack is muted.",
        "quiet hours": "Quiet hours: the clack is silent until they end.", disabled: "Sound is off." }[state] ?? "The clack cannot play right now.";
  note.replaceChildren(document.createTextNode(prefix + words));
  if (reason && state === "unavailable") {
    const more = document.createElement("details");
    more.append(Object.assign(document.createElement("summary"), { textContent: "Details" }),
      Object.assign(document.createElement("span"), { className: "muted", textContent: reason }));
    note.append(" ", more);
  }
}

// Quiet now and the default flip, as Home Assistant's switch and select set them.
async function loadControls() {
  const controls = (await api(E.controls())).data;
  $("paused").checked = controls.paused;
  $("default-transition").value = controls.transition;
  document.querySelector("#controls button").disabled = false;
}

function controlsNote(controls, prefix = "") {
  $("controls-note").textContent = prefix + (controls.paused ? "The board holds still; messages wait." : "The board shows messages as they come.");
}

export function setUpControls() {
  onSubmit($("controls"), async () => {
    const reply = await api(E.setControls(), { paused: $("paused").checked, transition: $("default-transition").value });
    if (reply.status < 300) controlsNote(reply.data, "Saved. "); else $("controls-note").textContent = refused(reply);
  });
}

export function setUpSound() {
  onSubmit($("sound"), async () => {
    const reply = await api(E.setSound(), { mute: $("mute").checked, volume: Number($("volume").value), quietHours: $("quiet").value.trim() || null });
    if (reply.status < 300) soundNote(true, reply.data.state, reply.data.reason, "Saved. "); else $("sound-note").textContent = refused(reply);
  });
}

let calibrated = null;
async function loadCalibration(panels) {
  const direct = panels.filter((p) => p.driver === "spi" || p.driver === "gpio");
  if (!direct.length || calibrated === direct[0].id) return;
  calibrated = direct[0].id;
  const form = document.createElement("form");
  form.innerHTML = `<h3></h3><p class="muted">A flap that stops a little off: nudge its module by tenths of a flap.</p>
    <div class="row"><span><label for="cal-row">Row</label><input id="cal-row" type="number" min="1" max="${direct[0].rows}" value="1"></span>
    <span><label for="cal-column">Column</label><input id="cal-column" type="number" min="1" max="${direct[0].columns}" value="1"></span></div>
    <button type="button" data-tenths="-1">Nudge back</button> <button type="button" data-tenths="1">Nudge on</button><p role="status" id="cal-note"></p>`;
  form.querySelector("h3").textContent = `Calibrate ${calibrated}`;
  form.addEventListener("click", async (event) => {
    const tenths = Number(event.target.dataset?.tenths);
    if (!tenths) return;
    const reply = await api(E.calibrate(calibrated),
      { row: Number($("cal-row").value), column: Number($("cal-column").value), nudgeTenths: tenths });
    $("cal-note").textContent = reply.status < 300 ? "Nudged; the module homes again." : refused(reply);
  });
  $("calibration").replaceChildren(form);
}

// The content sources: whether each is up to date, what a template gets from it now, and when
// its triggers last went off; the owner may fetch one now.
async function sourceLines(owner) {
  const reply = await api(E.sources());
  if (reply.status >= 300) return [];
  const lines = [];
  for (const source of reply.data.sources || []) {
    const values = Object.entries(source.values || {}).filter(([name]) => name !== "stale" && name !== "updated")
      .map(([name, value]) => `{{${source.name}.${name}}} ${shortValue(value)}`).join(", ");
    const words = {
      ok: `Up to date${source.updated ? ` (${time(source.updated)})` : ""}.`,
      failing: `Could not be fetched just now; the board uses what came at ${source.updated ? time(source.updated) : "the last good fetch"}.`,
      stale: "Out of date: the board shows -- for its values until it answers again.",
      missing: source.kind === "webhook" ? "Nothing has been pushed to it yet."
        : source.failures ? "Could not be fetched yet; flapd keeps trying (the reason is under Details)." : "Nothing has arrived yet.",
    }[source.state] ?? source.state;
    const detail = [`${source.kind} from ${source.from}${source.every ? `, every ${source.every}` : ""}, stale after ${source.staleAfter}`,
      source.error, ...(source.warnings || []), values].filter(Boolean).join(" · ");
    const buttons = owner && source.kind !== "webhook"
      ? [["Fetch now", async () => { await api(E.refreshSource(source.name)); setTimeout(refreshStatus, 1500); }]] : [];
    lines.push(plain(`Source ${source.name}`, words, detail, buttons));
  }
  for (const trigger of reply.data.triggers || []) {
    lines.push(plain(`When ${trigger.source}: ${trigger.when}`, trigger.lastFired ? `Last shown ${ago(trigger.lastFired)}.` : "Not shown yet.",
      `trigger ${trigger.name}${trigger.coolingUntil ? ` · waits until ${time(trigger.coolingUntil)} before it may show again` : ""}`));
  }
  return lines;
}

function shortValue(value) {
  if (Array.isArray(value)) return `(${value.length})`;
  if (value && typeof value === "object") return value.title ?? "…";
  return String(value);
}
