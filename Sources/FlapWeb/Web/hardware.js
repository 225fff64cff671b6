// "Find my board": this machine's serial ports and devices as flapd lists them (nothing written),
// and a search that asks each free port what it is. The owner's only.
import { $, api, E, refused, tell } from "/web/api.js";

function portLine(port, searched) {
  const name = port.path === port.device ? port.path : `${port.path} (${port.device})`;
  if (port.heldBy) return `${name}: held by ${port.heldBy}, left alone`;
  const said = port.answered;
  if (!said) return `${name}: ${searched ? "not asked" : "not asked yet"}`;
  if (said.driver === "rs485") {
    const ids = said.modules.map((m) => m.id).join(", ");
    return `${name}: RS-485 modules ${ids} (driver "rs485")`;
  }
  if (said.driver === "chainlink") {
    const count = typeof said.modules === "number" ? `${said.modules} modules` : "modules not counted yet";
    return `${name}: a Chainlink controller, ${count} (driver "chainlink")`;
  }
  return `${name}: nothing any driver knows answered`;
}

function show(found, searched) {
  const lines = found.serialPorts.map((port) => portLine(port, searched));
  if (!lines.length) lines.push("No serial ports.");
  const list = (names) => (names.length ? names.join(", ") : "none");
  lines.push(`Screens: ${list(found.local.framebuffers)}. SPI: ${list(found.local.spi)}. GPIO chips: ${list(found.local.gpioChips)}.`);
  $("hardware-list").replaceChildren(...lines.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
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
    // While it runs, say what it is doing.
    const progress = setInterval(async () => {
      const now = await api(E.hardware());
      if (now.status === 200 && now.data.searching) tell($("hardware-note"), `Searching: ${now.data.searching}…`);
    }, 1000);
    const reply = await api(E.searchHardware(), {});
    clearInterval(progress);
    $("hardware-search").disabled = false;
    if (reply.status === 200) { show(reply.data, true); tell($("hardware-note"), "Searched."); }
    else tell($("hardware-note"), refused(reply));
  });
  refresh();
}
