// Painting a pattern on a grid of the panel's size: the eight colours and blank, a brush, a
// flood fill and letters over the paint; sent as codes or saved as a quick message.
import { $, glyphsFor, loadGlyphs, saveTemplate, send } from "/web/api.js";

export async function setUpPaint(rows, columns, flap62, changed) {
  const glyphs = glyphsFor(await loadGlyphs(), flap62);
  const codeOf = Object.fromEntries(Object.entries(glyphs.characters).map(([code, ch]) => [ch, Number(code)]));
  const codes = new Array(rows * columns).fill(0);
  let colour = 63, focus = 0, painting = false;

  const palette = $("palette");
  const swatches = [...Object.keys(glyphs.names).map(Number), 0].map((code) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.style.backgroundColor = glyphs.colours[code] || "#1c1c1c";
    button.dataset.code = code;
    const name = glyphs.names[code] || "blank";
    button.setAttribute("aria-label", name);
    button.title = name;
    button.addEventListener("click", () => choose(code));
    palette.append(button);
    return [code, button];
  });
  function choose(code) {
    colour = code;
    for (const [c, button] of swatches) button.setAttribute("aria-pressed", String(c === code));
  }
  choose(colour);

  const grid = document.createElement("div");
  grid.className = "board paint";
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", `Painting, ${rows} rows of ${columns}`);
  // Every cell at least 44 px, a finger's width: on a phone the grid is wider than the screen,
  // and the Move tool slides it.
  grid.style.gridTemplateColumns = `repeat(${columns}, minmax(44px, 1fr))`;
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.className = "paint-row";
    for (let c = 0; c < columns; c++) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = r === 0 && c === 0 ? 0 : -1;
      cell.dataset.index = String(r * columns + c);
      row.append(cell);
      cells.push(cell);
    }
    grid.append(row);
  }
  $("canvas").replaceChildren(grid);
  cells.forEach((_, i) => draw(i));

  function draw(i) {
    const code = codes[i], cell = cells[i];
    cell.style.backgroundColor = glyphs.colours[code] || "";
    cell.dataset.code = code;
    cell.textContent = glyphs.colours[code] ? "" : (glyphs.characters[code] || "");
    const what = glyphs.names[code] || (code === 0 ? "blank" : glyphs.characters[code]);
    cell.setAttribute("aria-label", `row ${Math.floor(i / columns) + 1}, column ${(i % columns) + 1}: ${what}`);
  }
  const tool = () => document.querySelector("input[name=tool]:checked").value;
  function set(i, code) { if (codes[i] !== code) { codes[i] = code; draw(i); } }
  function apply(i) {
    if (tool() === "fill") floodFill(i, colour); else if (tool() === "brush") set(i, colour);
  }
  function floodFill(start, code) {
    const target = codes[start];
    if (target === code) return;
    const stack = [start];
    while (stack.length) {
      const i = stack.pop();
      if (codes[i] !== target) continue;
      set(i, code);
      const r = Math.floor(i / columns), c = i % columns;
      if (r > 0) stack.push(i - columns);
      if (r < rows - 1) stack.push(i + columns);
      if (c > 0) stack.push(i - 1);
      if (c < columns - 1) stack.push(i + 1);
    }
  }
  function move(to) {
    cells[focus].tabIndex = -1;
    focus = Math.max(0, Math.min(cells.length - 1, to));
    cells[focus].tabIndex = 0;
    cells[focus].focus();
  }
  const cellAt = (event) => document.elementFromPoint(event.clientX, event.clientY)?.closest?.(".paint .cell");

  for (const choice of document.querySelectorAll("input[name=tool]")) {
    choice.addEventListener("change", () => grid.classList.toggle("moving-tool", tool() === "move"));
  }
  grid.addEventListener("pointerdown", (event) => {
    const cell = tool() !== "move" && cellAt(event);
    if (!cell) return;
    event.preventDefault();
    move(Number(cell.dataset.index));
    if (tool() !== "text") { painting = tool() === "brush"; apply(focus); }
  });
  grid.addEventListener("pointermove", (event) => {
    const cell = painting && cellAt(event);
    if (cell) set(Number(cell.dataset.index), colour);
  });
  window.addEventListener("pointerup", () => { painting = false; });
  grid.addEventListener("keydown", (event) => {
    const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns, Home: -(focus % columns) };
    if (event.key in steps) { event.preventDefault(); move(focus + steps[event.key]); return; }
    if (tool() === "text") {
      if (event.key === "Backspace") { event.preventDefault(); move(focus - 1); set(focus, 0); return; }
      const code = event.key.length === 1 ? (event.key === " " ? 0 : codeOf[event.key.toUpperCase()]) : undefined;
      if (code !== undefined) { event.preventDefault(); set(focus, code); move(focus + 1); }
      return;
    }
    if (event.key === " " || event.key === "Enter") { event.preventDefault(); apply(focus); }
  });

  $("paint-clear").addEventListener("click", () => { cells.forEach((_, i) => set(i, 0)); });
  const rowsOfCodes = () => Array.from({ length: rows }, (_, r) => codes.slice(r * columns, (r + 1) * columns));
  $("paint-send").addEventListener("click", () => send({
    codes: rowsOfCodes(), sender: { id: $("sender").value.trim() || "owner" }, transition: { strategy: $("transition").value },
  }, $("paint-receipt"), changed));
  $("paint-save").addEventListener("click", () => saveTemplate($("paint-name"), { codes: rowsOfCodes() }, $("paint-receipt"), changed));
}
