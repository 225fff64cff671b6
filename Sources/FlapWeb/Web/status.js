// Health at a glance: each panel (its faulty modules, its quiet hours), calibration nudges for
// directly driven panels, the sound's settings, the storage when it is in trouble, the clock and
// the schedules, and the links to the broker, the sensors and real Vestaboards.
import { $, ago, api, fill, item, refused } from "/web/api.js";

let soundLoaded = false;

export async function refreshStatus() {
  const status = (await api("GET", "/v1/status")).data;
  fill($("panels"), (status.panels || []).map((p) => {
    const faults = p.faults.map((f) => `row ${f.row}, column ${f.column}: ${f.fault}`).join("; ");
    const quiet = p.quietUntil ? ` · quiet hours until ${new Date(p.quietUntil).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}` : "";
    return item(p.id, `${p.driver}, ${p.rows}×${p.columns}, ${p.connected ? (p.moving ? "moving" : "resting") : "not answering"}${quiet}${faults ? ` · needs attention: ${faults}` : ""}`);
  }), "No panels.");

  const links = [];
  // The disk holding flapd's state, only when it needs someone: full, read-only, a damaged file set aside.
  const storage = status.storage || {};
  if (storage.state && storage.state !== "ok") links.push(item("Storage", (storage.faults || []).map((f) => f.message).join(" · ") || storage.state));
  for (const moved of storage.movedAside || []) links.push(item("Damaged file set aside", `${moved.path} → ${moved.movedTo} (${moved.reason})`));
  // Whether timed events (sent for later, schedules, quiet hours) may go by the clock, and why.
  if (status.time) links.push(item("Clock", `${status.time.trusted ? "trusted" : "not trusted yet"}: ${status.time.reason}${status.time.scheduled ? ` · ${status.time.scheduled} sent for later` : ""}`));
  if (status.mqtt) links.push(item("MQTT broker", `${status.mqtt.broker}: ${status.mqtt.state} since ${ago(status.mqtt.since)}${status.mqtt.reason ? ` (${status.mqtt.reason})` : ""}`));
  for (const board of status.boards || []) {
    links.push(item(`Vestaboard ${board.panel}`, `${board.api} ${board.address}: ${board.reachable === false ? "unreachable" : board.reachable ? "reachable" : "not tried yet"}, ${board.queueDepth} waiting${board.lastError ? ` · ${board.lastError}` : ""}`));
  }
  for (const sensor of (await api("GET", "/v1/sensors")).data.sensors || []) {
    const straps = sensor.straps.map((s) => `${s.name} ${s.state}${s.battery != null ? ` (battery ${s.battery} %)` : ""}`).join(", ");
    links.push(item(`Sensor ${sensor.name}`, `${sensor.state}${sensor.reason ? ` (${sensor.reason})` : ""}${straps ? ` · ${straps}` : ""}${sensor.remedy ? ` · ${sensor.remedy}` : ""}`));
  }
  if ((status.boards || []).length) {
    for (const d of ((await api("GET", "/v1/queue?limit=5")).data.deliveries || []).filter((d) => d.state === "failed" || d.state === "conflict")) {
      links.push(item(`Write ${d.id} to ${d.panel}`, `${d.state}${d.lastError ? `: ${d.lastError}` : ""}`, [
        ["Retry", async () => { await api("POST", `/v1/queue/${d.id}/retry`); refreshStatus(); }],
      ]));
    }
  }
  for (const s of (await api("GET", "/v1/schedules")).data.schedules || []) {
    const when = s.cron ? `cron ${s.cron}` : `${(s.days || ["daily"]).join(", ")} at ${(s.times || []).join(", ")}`;
    links.push(item(`Schedule ${s.name}`, `${when}${s.timeZone ? ` (${s.timeZone})` : ""}${s.next ? ` · next ${new Date(s.next).toLocaleString()}` : ""}${s.fromFile ? " · from the configuration file" : ""}`));
  }
  fill($("links"), links, "No MQTT broker, sensors or Vestaboards configured.");
  if (!soundLoaded) { soundLoaded = true; await loadSound(); }
  await loadCalibration(status.panels || []);
}

async function loadSound() {
  const sound = (await api("GET", "/v1/sound")).data;
  $("mute").checked = sound.mute;
  $("volume").value = sound.volume;
  $("quiet").value = sound.quietHours || "";
  $("sound-note").textContent = sound.enabled ? `Sound: ${sound.state}${sound.reason ? ` (${sound.reason})` : ""}` : "Sound is off in the configuration.";
  for (const id of ["mute", "volume", "quiet"]) $(id).disabled = !sound.enabled;
  document.querySelector("#sound button").disabled = !sound.enabled;
}

export function setUpSound() {
  $("sound").addEventListener("submit", async (event) => {
    event.preventDefault();
    const reply = await api("PATCH", "/v1/sound", { mute: $("mute").checked, volume: Number($("volume").value), quietHours: $("quiet").value.trim() || null });
    $("sound-note").textContent = reply.status < 300 ? `Saved. Sound: ${reply.data.state}` : refused(reply);
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
    const reply = await api("POST", `/v1/panels/${encodeURIComponent(calibrated)}/calibration`,
      { row: Number($("cal-row").value), column: Number($("cal-column").value), nudgeTenths: tenths });
    $("cal-note").textContent = reply.status < 300 ? "Nudged; the module homes again." : refused(reply);
  });
  $("calibration").replaceChildren(form);
}
