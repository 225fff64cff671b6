// Settings: every setting flapd.toml's reader reads, as GET /v1/settings declares it, each with
// where its value comes from. The forms are made from those declarations: a key flapd starts to
// read is on this page with no code of its own. A change is checked by that same reader; once
// kept, flapd applies it within seconds, and this page waits for it to answer again.
import { $, api, E, refused, tell } from "/web/api.js";

const origins = { default: "flapd's default", file: "flapd.toml", page: "set here", new: "" };

// "sound.volume" is in Sound; "panel[0].size" in Panel 1; "listen" in Network.
function groupOf(key) {
  const first = key.split(".")[0];
  const entry = first.match(/^([a-z_]+)\[(\d+)\]$/);
  if (entry) return `${entry[1].replace("_", " ")} ${Number(entry[2]) + 1}`;
  return key.includes(".") ? first.replace("_", " ") : "network and log";
}

function shown(setting) {
  const value = setting.value;
  if (value === undefined) return "";
  if (setting.type === "list") return value.join(", ");
  if (setting.type === "listOfLists" || setting.type === "table") return JSON.stringify(value);
  return String(value);
}

function field(setting) {
  let input;
  if (setting.type === "boolean") {
    input = document.createElement("select");
    for (const [value, label] of [["", "(default)"], ["true", "yes"], ["false", "no"]]) input.add(new Option(label, value));
  } else if (setting.type === "choice") {
    input = document.createElement("select");
    input.add(new Option("(default)", ""));
    for (const choice of setting.choices) input.add(new Option(choice, choice));
  } else {
    input = document.createElement("input");
    if (setting.type === "wholeNumber" || setting.type === "number") { input.type = "number"; if (setting.type === "number") input.step = "any"; }
    if (setting.type === "secret") {
      input.type = "password";
      input.autocomplete = "off";
      input.placeholder = setting.given ? "(given; type to replace)" : "(none)";
    }
    input.size = 22;
  }
  input.value = setting.type === "secret" ? "" : shown(setting);
  input.name = setting.key;
  input.dataset.key = setting.key;
  input.dataset.type = setting.type;
  input.dataset.was = input.value;
  input.id = `setting-${setting.key}`;
  return input;
}

// The value typed, as the API takes it; throws the reason when it cannot be one.
function typed(input) {
  const text = input.value.trim();
  switch (input.dataset.type) {
    case "wholeNumber": case "number": return Number(text);
    case "boolean": return text === "true";
    case "list": return text.split(",").map((part) => part.trim()).filter((part) => part);
    case "listOfLists": case "table":
      try { return JSON.parse(text); } catch { throw new Error(`${input.dataset.key}: not JSON, such as ${input.dataset.type === "table" ? '{"Accept": "text/plain"}' : "[[17, 18]]"}`); }
    default: return text;
  }
}

function row(setting, save) {
  const line = document.createElement("div");
  line.className = "setting";
  const label = document.createElement("label");
  label.htmlFor = `setting-${setting.key}`;
  label.textContent = setting.key.split(".").slice(-1)[0].replace(/^[a-z_]+\[\d+\]$/, setting.key);
  const origin = document.createElement("span");
  origin.className = "muted origin";
  origin.textContent = origins[setting.origin] || setting.origin;
  line.append(label, field(setting), origin);
  if (setting.origin === "page") {
    const back = document.createElement("button");
    back.type = "button";
    back.textContent = setting.fileValue === undefined ? "Use the default" : `Use the file's (${JSON.stringify(setting.fileValue)})`;
    back.addEventListener("click", () => save([{ key: setting.key, value: null }]));
    line.append(back);
  }
  return line;
}

function render(data, save) {
  const groups = new Map();
  for (const setting of data.settings) {
    const group = groupOf(setting.key);
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(setting);
  }
  const open = new Set([...$("settings-groups").querySelectorAll("details[open]")].map((d) => d.dataset.group));
  $("settings-groups").replaceChildren(...[...groups].map(([name, settings]) => {
    const details = document.createElement("details");
    details.dataset.group = name;
    details.open = open.has(name);
    const summary = document.createElement("summary");
    summary.textContent = name[0].toUpperCase() + name.slice(1);
    const form = document.createElement("form");
    form.append(...settings.map((setting) => row(setting, save)));
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = "Save";
    form.append(button);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const changes = [];
      try {
        for (const input of form.querySelectorAll("[data-key]")) {
          if (input.value === input.dataset.was) continue;
          // Emptied: the page's value taken back.
          changes.push({ key: input.dataset.key, value: input.value.trim() === "" ? null : typed(input) });
        }
      } catch (error) { tell($("settings-note"), error.message); return; }
      if (changes.length) save(changes); else tell($("settings-note"), "Nothing changed.");
    });
    details.append(summary, form);
    return details;
  }));
  $("settings-file").textContent = data.file ? `flapd.toml is ${data.file}; what you set here is kept in ${data.pageFile}.` : `What you set here is kept in ${data.pageFile}.`;
}

// "Add": a new panel, source, schedule, trigger, sensor or mirror, its form made from what an
// entry of that kind would hold; its name first, its kind already chosen.
function renderNew(templates, save) {
  const choice = $("settings-new-kind");
  const was = choice.value;
  choice.replaceChildren(new Option("Add…", ""), ...templates.map((template, index) =>
    new Option(`${template.table}${template.kind ? `: ${template.kind}` : ""}`, String(index))));
  choice.value = [...choice.options].some((option) => option.value === was) ? was : "";
  const show = () => {
    const template = templates[Number(choice.value)];
    const form = $("settings-new");
    if (!choice.value || !template) { form.replaceChildren(); return; }
    const kindKey = template.kindKey && template.settings.find((s) => s.key.endsWith(`.${template.kindKey}`));
    const rows = template.settings.filter((setting) => setting !== kindKey).map((setting) => row({ ...setting, origin: "new" }, save));
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = "Add";
    form.replaceChildren(...rows, button);
    form.onsubmit = (event) => {
      event.preventDefault();
      const changes = [];
      try {
        for (const input of form.querySelectorAll("[data-key]")) {
          if (input.value.trim() === "") continue;
          changes.push({ key: input.dataset.key, value: typed(input) });
        }
      } catch (error) { tell($("settings-note"), error.message); return; }
      const nameKey = template.nameKey && template.settings.find((s) => s.key.endsWith(`.${template.nameKey}`));
      if (nameKey && !changes.some((change) => change.key === nameKey.key)) {
        tell($("settings-note"), `${nameKey.key}: a new ${template.table} needs its ${template.nameKey}`);
        return;
      }
      if (kindKey) changes.splice(nameKey ? 1 : 0, 0, { key: kindKey.key, value: template.kind });
      if (!nameKey && !changes.length) return;
      save(changes);
    };
  };
  choice.onchange = show;
  show();
}

// Whether the settings were shown as the parts that answer run them (not while a change is applied).
async function load(save) {
  const reply = await api(E.settings());
  if (reply.status !== 200) { if (reply.status !== 0) tell($("settings-note"), refused(reply)); return false; }
  render(reply.data, save);
  renderNew(reply.data.new, save);
  return !reply.data.applying;
}

async function save(changes) {
  tell($("settings-note"), "Saving…");
  const reply = await api(E.changeSettings(), { changes });
  if (reply.status !== 200) { tell($("settings-note"), refused(reply)); return; }
  if (!reply.data.applying) { tell($("settings-note"), "Nothing changed."); return; }
  tell($("settings-note"), "Saved; flapd is applying it…");
  // flapd's parts start again: asked until those that answer run the change, for up to a minute.
  for (let tries = 0; tries < 120; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (await load(save)) {
      tell($("settings-note"), "Saved and applied.");
      window.dispatchEvent(new CustomEvent("settings-applied"));
      return;
    }
  }
  tell($("settings-note"), "Saved; flapd has not answered since. Reload the page in a moment.");
}

export function setUpSettings() {
  load(save);
  window.addEventListener("settings-changed", () => load(save));
  // "Use this" on a device that does not answer: the Add form for its driver, its device filled in.
  window.addEventListener("add-panel", async (event) => {
    await load(save);
    const choice = $("settings-new-kind");
    const option = [...choice.options].find((o) => o.text === `panel: ${event.detail.driver}`);
    if (!option) return;
    choice.value = option.value;
    choice.dispatchEvent(new Event("change"));
    const device = $("settings-new").querySelector("[data-key$='.device']");
    if (device) device.value = event.detail.device;
    $("settings-new").scrollIntoView();
    tell($("settings-note"), `Give the panel an id, its size and its wiring, then Add; a test pattern then shows it works.`);
  });
}
