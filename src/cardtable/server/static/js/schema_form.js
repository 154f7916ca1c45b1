// @ts-check
// Form controls generated from a game's rules_schema (GET /api/games): one labelled control per
// rule option with its help text and default shown; values are read back as JSON-ready rules.

import { h } from "./dom.js";

let controlCounter = 0;

function controlId(name) {
  controlCounter += 1;
  return `rule-${name.replace(/[^a-z0-9_-]/gi, "-")}-${controlCounter}`;
}

/** "meld_values.prile_4" -> "Prile 4"; "first_drop" -> "First drop". */
export function humanName(name) {
  const last = name.split(".").pop().replace(/_/g, " ");
  return last.charAt(0).toUpperCase() + last.slice(1);
}

/** The words for a choice: the schema's `choice_labels` when it gives them. */
export function choiceText(entry, value) {
  const index = (entry.choices || []).findIndex((c) => c === value);
  return index >= 0 && entry.choice_labels?.[index] ? entry.choice_labels[index] : null;
}

export function defaultText(value, entry = null) {
  const chosen = entry ? choiceText(entry, value) : null;
  if (chosen) return chosen;
  if (value === null || value === undefined) return "no limit";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (Array.isArray(value)) return value.length ? value.join(" ") : "none";
  if (typeof value === "object") return "table below";
  return String(value);
}

function describe(entry, id) {
  const parts = [];
  if (entry.help) parts.push(entry.help);
  const limits = [];
  if (entry.min !== undefined && entry.min !== null) limits.push(`from ${entry.min}`);
  if (entry.max !== undefined && entry.max !== null) limits.push(`to ${entry.max}`);
  // A help text that already gives the bounds ("(0 to 12)") is not followed by them again.
  const stated = limits.length === 2 && (entry.help || "").includes(`${entry.min} to ${entry.max}`);
  if (stated) limits.length = 0;
  return h(
    "span",
    { class: "field-help", id: `${id}-help` },
    parts.join(" "),
    limits.length ? ` (${limits.join(" ")})` : "",
    h("span", { class: "field-default" }, ` Default: ${defaultText(entry.default, entry)}.`),
  );
}

function changedClass(entry, value) {
  return JSON.stringify(entry.default) === JSON.stringify(value) ? "" : " changed";
}

/**
 * One control for a schema entry. `get()` reads the current value, `set(v)` stores a new one.
 * Returns a <div class="field"> element.
 */
export function fieldFor(entry, get, set, { title = null } = {}) {
  const id = controlId(entry.name);
  const value = get();
  const labelText = title ?? entry.label ?? humanName(entry.name);
  const help = describe(entry, id);
  const common = { id, name: entry.name, "aria-describedby": `${id}-help` };
  switch (entry.type) {
    case "bool": {
      const input = h("input", { ...common, type: "checkbox", checked: Boolean(value) });
      input.addEventListener("change", () => set(input.checked));
      return h(
        "div",
        { class: `field field-bool${changedClass(entry, value)}`, dataset: { rule: entry.name } },
        h("label", { for: id, class: "check" }, input, h("span", {}, labelText)),
        help,
      );
    }
    case "choice": {
      const select = h(
        "select",
        common,
        (entry.choices || []).map((choice, index) =>
          h(
            "option",
            { value: String(choice), selected: choice === value },
            entry.choice_labels?.[index] ?? String(choice),
          ),
        ),
      );
      select.addEventListener("change", () => {
        const picked = (entry.choices || []).find((c) => String(c) === select.value);
        set(picked ?? select.value);
      });
      return h(
        "div",
        { class: `field${changedClass(entry, value)}`, dataset: { rule: entry.name } },
        h("label", { for: id }, labelText),
        select,
        help,
      );
    }
    case "int":
    case "int-or-none": {
      const allowsNone = entry.type === "int-or-none";
      const input = h("input", {
        ...common,
        type: "number",
        inputmode: "numeric",
        step: 1,
        min: entry.min ?? null,
        max: entry.max ?? null,
        value: value === null || value === undefined ? "" : String(value),
        disabled: allowsNone && (value === null || value === undefined),
      });
      const read = () => {
        const n = Number.parseInt(input.value, 10);
        return Number.isFinite(n) ? n : null;
      };
      input.addEventListener("change", () => {
        const n = read();
        if (n !== null) set(n);
      });
      const children = [h("label", { for: id }, labelText), input];
      if (allowsNone) {
        const noneId = `${id}-none`;
        const none = h("input", {
          id: noneId,
          type: "checkbox",
          checked: value === null || value === undefined,
        });
        none.addEventListener("change", () => {
          input.disabled = none.checked;
          if (none.checked) {
            set(null);
          } else {
            const fallback = entry.default ?? entry.min ?? 1;
            if (read() === null) input.value = String(fallback);
            set(read());
          }
        });
        children.push(h("label", { for: noneId, class: "check none-toggle" }, none, "No limit"));
      }
      children.push(help);
      return h(
        "div",
        { class: `field field-number${changedClass(entry, value)}`, dataset: { rule: entry.name } },
        children,
      );
    }
    case "labels": {
      const chosen = new Set(Array.isArray(value) ? value : []);
      const boxes = (entry.choices || []).map((choice) => {
        const boxId = `${id}-${choice}`;
        const box = h("input", { id: boxId, type: "checkbox", checked: chosen.has(choice) });
        box.addEventListener("change", () => {
          const next = (Array.isArray(get()) ? get() : []).filter((c) => c !== choice);
          if (box.checked) next.push(choice);
          set(next);
        });
        return h("label", { for: boxId, class: "check" }, box, choice);
      });
      return h(
        "fieldset",
        { class: `field field-labels${changedClass(entry, value)}`, dataset: { rule: entry.name } },
        h("legend", {}, labelText),
        h("div", { class: "check-grid" }, boxes),
        help,
      );
    }
    case "object": {
      const current = value && typeof value === "object" ? value : {};
      const subEntries = entry.fields
        || Object.entries(entry.default || current).map(([key, v]) => ({
          name: key,
          type: typeof v === "boolean" ? "bool" : "int",
          default: v,
          min: 0,
        }));
      const controls = subEntries.map((sub) =>
        fieldFor(
          { ...sub, name: `${entry.name}.${sub.name}` },
          () => (get() || {})[sub.name],
          (v) => set({ ...(get() || {}), [sub.name]: v }),
          { title: sub.label ?? humanName(sub.name) },
        ),
      );
      return h(
        "fieldset",
        { class: `field field-object${changedClass(entry, value)}`, dataset: { rule: entry.name } },
        h("legend", {}, labelText),
        entry.help ? h("p", { class: "field-help" }, entry.help) : null,
        h("div", { class: "object-grid" }, controls),
      );
    }
    default: {
      const input = h("input", { ...common, type: "text", value: value ?? "" });
      input.addEventListener("change", () => set(input.value));
      return h(
        "div",
        { class: "field", dataset: { rule: entry.name } },
        h("label", { for: id }, labelText),
        input,
        help,
      );
    }
  }
}

/** A read-only line for a rule's current value (the table's house rules panel). */
export function ruleSummaryRow(entry, value) {
  const changed = JSON.stringify(entry.default) !== JSON.stringify(value);
  const text = (v) => (typeof v === "object" && v !== null && !Array.isArray(v)
    ? Object.entries(v).map(([k, item]) => `${entry.fields?.find((f) => f.name === k)?.label ?? humanName(k)} ${item}`).join(", ")
    : defaultText(v, entry));
  const shown = text(value);
  return h(
    "tr",
    { class: changed ? "changed" : "" },
    h("th", { scope: "row" }, entry.label ?? humanName(entry.name)),
    h("td", {}, shown, changed ? h("span", { class: "tag" }, "house rule") : ""),
    h("td", { class: "muted" }, text(entry.default)),
  );
}
