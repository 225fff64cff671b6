// "Find my board": this machine's serial ports and devices as flapd lists them (nothing written),
// and a search that asks each free port what it is. The owner's only.
import { $, api, E, onSubmit, refused, tell } from "/web/api.js";

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
  // A Vestaboard answers a request without its key in a way no other server does; with the
  // token Vestaboard e-mails its owner, flapd turns its Local API on and keeps the key.
  onSubmit($("vestaboard-find"), async () => {
    const address = $("vestaboard-address").value.trim() || "vestaboard.local";
    const token = $("vestaboard-token").value.trim();
    tell($("vestaboard-note"), `Asking ${address}…`);
    const reply = await api(E.findVestaboard(), token ? { address, enablementToken: token } : { address });
    $("vestaboard-token").value = "";
    tell($("vestaboard-note"), reply.status === 200 ? `${reply.data.address}: ${reply.data.said}.` : refused(reply));
  });
  // Straps advertise about once a second: ten seconds hears those worn nearby.
  $("straps-listen").addEventListener("click", async () => {
    $("straps-listen").disabled = true;
    tell($("straps-note"), "Listening for ten seconds…");
    const reply = await api(E.findStraps(), {});
    $("straps-listen").disabled = false;
    if (reply.status !== 200) { tell($("straps-note"), refused(reply)); return; }
    $("straps-list").replaceChildren(...reply.data.straps.map((strap) => {
      const li = document.createElement("li");
      li.textContent = `${strap.strap}: ${strap.state}${strap.bpm ? `, ${strap.bpm} BPM` : ""}`;
      return li;
    }));
    tell($("straps-note"), reply.data.straps.length ? `Heard through ${reply.data.source}.` : `No strap heard (${reply.data.source}: ${reply.data.state}).`);
  });
  refresh();
}
