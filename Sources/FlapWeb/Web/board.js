// A panel drawn as split-flap cells, flipping in step with the plans flapd sends.
import { glyphsFor } from "/web/api.js";

export class BoardView {
  constructor(container, name, rows, columns, glyphs, flap62) {
    this.glyphs = glyphsFor(glyphs, flap62);
    this.rows = rows;
    this.columns = columns;
    const caption = document.createElement("p");
    caption.className = "panel-name";
    caption.textContent = name;
    this.grid = document.createElement("div");
    this.grid.className = "board";
    this.grid.setAttribute("role", "img");
    this.grid.style.gridTemplateColumns = `repeat(${columns}, 1fr)`;
    this.cells = [];
    for (let i = 0; i < rows * columns; i++) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.setAttribute("aria-hidden", "true");
      this.grid.append(cell);
      this.cells.push(cell);
    }
    const panel = document.createElement("div");
    panel.className = "panel";
    panel.append(caption, this.grid);
    container.append(panel);
    this.codes = new Array(rows * columns).fill(0);
    this.plan = null;
    this.frame = null;
  }

  // A resting board: drawn at once, and any plan in flight is over.
  show(codeRows) {
    this.plan = null;
    codeRows.flat().forEach((code, i) => this.draw(i, code, false));
    this.describe();
  }

  // A plan: every module's path and landings from the instant `startedAt` (ms since 1970).
  play(plan) {
    this.plan = plan;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.tick());
  }

  tick() {
    this.frame = null;
    const plan = this.plan;
    if (!plan) return;
    const t = Date.now() - plan.startedAt;
    plan.modules.forEach((module, i) => {
      let landed = 0;
      while (landed < module.landings.length && module.landings[landed] <= t) landed++;
      this.draw(i, module.path[landed], landed < module.landings.length && t >= module.start);
    });
    if (t < plan.duration) this.frame = requestAnimationFrame(() => this.tick());
    else this.describe();
  }

  draw(i, code, moving) {
    if (this.codes[i] === code && !moving && !this.cells[i].classList.contains("moving")) return;
    this.codes[i] = code;
    const cell = this.cells[i];
    const colour = this.glyphs.colours[code];
    cell.style.backgroundColor = colour || "";
    cell.dataset.code = code;
    cell.textContent = colour ? "" : (this.glyphs.characters[code] || "");
    cell.classList.toggle("moving", moving);
  }

  // The board's text for screen readers.
  describe() {
    const lines = [];
    for (let r = 0; r < this.rows; r++) {
      const row = this.codes.slice(r * this.columns, (r + 1) * this.columns)
        .map((code) => this.glyphs.colours[code] ? this.glyphs.names[code] + " " : (this.glyphs.characters[code] || " ")).join("").trim();
      if (row) lines.push(row);
    }
    this.grid.setAttribute("aria-label", lines.length ? lines.join(". ") : "blank");
  }
}
