// "Find my board": this machine's serial ports and devices as flapd lists them (nothing written),
// and a search that asks each free port what it is. The owner's only.
import { $, api, E, onSubmit, refused, tell } from "/web/api.js";

function portLine(port, searched) {
  const name = port.path === port.device ? port.path : `${port.path} (${port.device})`;
  if (port.heldBy) return `${name}: held by ${port.heldBy}, left alone`;
  const said = port.answered;
  if (!said) return `${name}: ${searched ? "not asked" : "not asked yet"}`;
  if (said.driver === "rs485") {
    const parts = [];
    if (said.modules.length) {
      const universal = said.modules.filter((m) => m.firmware === "universal").map((m) => m.id);
      const firmware = universal.length === said.modules.length ? ", Universal Firmware"
        : universal.length ? `, Universal Firmware on ${universal.join(", ")}` : "";
      parts.push(`RS-485 modules ${said.modules.map((m) => m.id).join(", ")}${firmware} (driver "rs485")`);
    }
    const fresh = said.unnumbered ?? [];
    if (fresh.length) {
      parts.push(`${fresh.length} new module${fresh.length === 1 ? "" : "s"} with no ID yet (serial ${fresh.join(", ")}): ` +
        "each needs an ID before it shows anything");
    }
    return `${name}: ${parts.join("; ")}`;
  }
  if (said.driver === "chainlink") {
    const count = typeof said.modules === "number" ? `${said.modules} modules` : "modules not counted yet";
    return `${name}: a Chainlink controller, ${count} (driver "chainlink")`;
  }
  return `${name}: nothing any driver knows answered`;
}

// What "Use this" makes of a device that answered: the board's first panel, with the size its
// modules make (a row of them; the owner can arrange rows in Settings).
function panelFrom(port) {
  const said = port.answered;
  if (said?.driver === "rs485" && said.modules.length) {
    const ids = said.modules.map((m) => m.id);
    const changes = [
      { key: "panel[0].driver", value: "rs485" }, { key: "panel[0].device", value: port.path },
      { key: "panel[0].size", value: `1x${ids.length}` }, { key: "panel[0].ids", value: [ids] },
    ];
    const steps = new Set(said.modules.map((m) => m.stepsPerRevolution).filter((n) => n !== undefined));
    if (steps.size === 1) changes.push({ key: "panel[0].steps_per_revolution", value: [...steps][0] });
    // Universal Firmware says each module's flaps: the reel when every module has the same.
    const reels = new Set(said.modules.map((m) => m.flaps));
    if (reels.size === 1 && typeof [...reels][0] === "string") changes.push({ key: "panel[0].reel", value: [...reels][0] });
    return changes;
  }
  if (said?.driver === "chainlink") {
    const changes = [{ key: "panel[0].driver", value: "chainlink" }, { key: "panel[0].device", value: port.path }];
    if (typeof said.modules === "number" && said.modules > 0) changes.push({ key: "panel[0].size", value: `1x${said.modules}` });
    return changes;
  }
  return null;
}

// Each module shows a letter or digit of its own (A, B, C… along the rows), for half a minute,
// then the board goes back: a module that stays blank, or shows another's letter, is wired wrong.
async function showTestPattern() {
  const board = await api(E.board());
  const panel = board.data.panels?.[0];
  if (board.status !== 200 || !panel) { tell($("hardware-note"), refused(board)); return; }
  const codes = Array.from({ length: panel.rows }, (_, row) =>
    Array.from({ length: panel.columns }, (_, column) => ((row * panel.columns + column) % 36) + 1));
  const reply = await api(E.sendMessage(), { codes, duration: 30 });
  const shown = reply.status === 202 || reply.status === 200;
  tell($("hardware-note"), shown ? "A test pattern is on the board for 30 seconds: every module should turn." : refused(reply));
  if (shown) window.dispatchEvent(new CustomEvent("test-pattern-shown"));
}

// Makes `changes` the board's settings, waits until flapd answers with them, then offers a test pattern.
async function use(what, changes) {
  tell($("hardware-note"), `Making ${what} this board's panel…`);
  const reply = await api(E.changeSettings(), { changes });
  if (reply.status !== 200) { tell($("hardware-note"), refused(reply)); return; }
  // Asked until the parts that answer run the change, for up to a minute.
  for (let tries = 0; tries < 120; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await api(E.settings());
    if (now.status === 200 && !now.data.applying) break;
  }
  tell($("hardware-note"), `${what} is this board's panel now.`);
  const button = document.createElement("button");
  button.type = "button";
  button.id = "hardware-test-pattern";
  button.textContent = "Show a test pattern";
  button.addEventListener("click", showTestPattern);
  $("hardware-note").append(" ", button);
  window.dispatchEvent(new CustomEvent("settings-changed"));
}

// A strap heard: added to the kiosk's Bluetooth sensor (`straps`), or a new one made for it.
async function useStrap(address) {
  const now = await api(E.settings());
  if (now.status !== 200) { tell($("straps-note"), refused(now)); return; }
  const settings = now.data.settings;
  const drivers = settings.filter((s) => /^sensor\[\d+\]\.driver$/.test(s.key));
  const ble = drivers.find((s) => s.value === "ble");
  let changes;
  if (ble) {
    const index = ble.key.match(/\d+/)[0];
    const straps = settings.find((s) => s.key === `sensor[${index}].straps`)?.value || [];
    if (straps.includes(address)) { tell($("straps-note"), `${address} is already one of this kiosk's straps.`); return; }
    changes = [{ key: `sensor[${index}].straps`, value: [...straps, address] }];
  } else {
    changes = [{ key: `sensor[${drivers.length}]`, value: { driver: "ble", straps: [address] } }];
  }
  const reply = await api(E.changeSettings(), { changes });
  tell($("straps-note"), reply.status === 200 ? `${address} is this kiosk's strap now.` : refused(reply));
  if (reply.status === 200) window.dispatchEvent(new CustomEvent("settings-changed"));
}

// A device that does not answer (a screen, SPI, GPIO): the Add form for its driver, its device
// filled in; its size and wiring are the owner's to say.
function offer(driver, device) {
  window.dispatchEvent(new CustomEvent("add-panel", { detail: { driver, device } }));
}

function listItem(text, buttons) {
  const li = document.createElement("li");
  li.textContent = text;
  for (const [label, action] of buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", action);
    li.append(" ", button);
  }
  return li;
}

function show(found, searched) {
  const items = found.serialPorts.map((port) => {
    const changes = port.heldBy ? null : panelFrom(port);
    return listItem(portLine(port, searched), changes ? [["Use this", () => use(port.path, changes)]] : []);
  });
  if (!items.length) items.push(listItem("No serial ports.", []));
  for (const fb of found.local.framebuffers) items.push(listItem(`Screen ${fb}`, [["Use this", () => offer("framebuffer", fb)]]));
  for (const spi of found.local.spi) items.push(listItem(`SPI ${spi} (MAX7219, WS2812 or a Chainlink Driver board)`, [["Use this", () => offer("max7219", spi)]]));
  for (const chip of found.local.gpioChips) items.push(listItem(`GPIO ${chip} (steppers on ULN2003 boards)`, [["Use this", () => offer("gpio", chip)]]));
  if (!found.local.framebuffers.length && !found.local.spi.length && !found.local.gpioChips.length) items.push(listItem("Screens: none. SPI: none. GPIO chips: none.", []));
  $("hardware-list").replaceChildren(...items);
}

async function refresh() {
  const reply = await api(E.hardware());
  if (reply.status !== 200) { tell($("hardware-note"), refused(reply)); return null; }
  show(reply.data.lastSearch || reply.data.listed, !!reply.data.lastSearch);
  return reply.data;
}

export function setUpHardware() {
  $("hardware-search").addEventListener("click", async () => {
    $("hardware-search").disabled = true;
    tell($("hardware-note"), "Asking each free serial port; this takes some seconds…");
    // While it runs, say what it is doing; a progress answer that comes after the search's own
    // (asked just before it ended) says nothing.
    let searched = false;
    const progress = setInterval(async () => {
      const now = await api(E.hardware());
      if (!searched && now.status === 200 && now.data.searching) tell($("hardware-note"), `Searching: ${now.data.searching}…`);
    }, 1000);
    const reply = await api(E.searchHardware(), {});
    searched = true;
    clearInterval(progress);
    $("hardware-search").disabled = false;
    if (reply.status === 200) { show(reply.data, true); tell($("hardware-note"), "Searched."); }
    else tell($("hardware-note"), refused(reply));
  });
  // A Vestaboard answers a request without its key in a way no other server does; with the
  // token Vestaboard e-mails its owner, flapd turns its Local API on and keeps the key.
  onSubmit($("vestaboard-find"), async () => {
    const address = $("vestaboard-address").value.trim() || "vestaboard.local";
    const token = $("vestaboard-token").value.trim();
    tell($("vestaboard-note"), `Asking ${address}…`);
    const reply = await api(E.findVestaboard(), token ? { address, enablementToken: token } : { address });
    $("vestaboard-token").value = "";
    tell($("vestaboard-note"), reply.status === 200 ? `${reply.data.address}: ${reply.data.said}.` : refused(reply));
    // With its key kept, the Vestaboard can be this board's panel, through its Local API.
    if (reply.status === 200 && reply.data.keyFile) {
      // `address` is the Local API's base URL as flapd reached it.
      const url = reply.data.address;
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Use this";
      button.addEventListener("click", () => use(reply.data.address, [
        { key: "panel[0].driver", value: "vestaboard" }, { key: "panel[0].api", value: "local" },
        { key: "panel[0].url", value: url }, { key: "panel[0].key_file", value: reply.data.keyFile },
      ]));
      $("vestaboard-note").append(" ", button);
    }
  });
  // Straps advertise about once a second: ten seconds hears those worn nearby.
  $("straps-listen").addEventListener("click", async () => {
    $("straps-listen").disabled = true;
    tell($("straps-note"), "Listening for ten seconds…");
    const reply = await api(E.findStraps(), {});
    $("straps-listen").disabled = false;
    if (reply.status !== 200) { tell($("straps-note"), refused(reply)); return; }
    $("straps-list").replaceChildren(...reply.data.straps.map((strap) =>
      listItem(`${strap.strap}: ${strap.state}${strap.bpm ? `, ${strap.bpm} BPM` : ""}`,
        strap.strap.startsWith("ble:") ? [["Use this", () => useStrap(strap.strap.slice(4))]] : [])));
    tell($("straps-note"), reply.data.straps.length ? `Heard through ${reply.data.source}.` : `No strap heard (${reply.data.source}: ${reply.data.state}).`);
  });
  refresh();
}
