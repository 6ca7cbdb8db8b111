// The scorekeeper's recording page (issue 12). The server describes what may happen next (choices with
// the game's own words, and a bounded look-ahead); this script offers them as buttons, keeps what was
// tapped in a queue in localStorage (each batch with its idempotency key and expected version), sends the
// queue in order, and survives a dropped connection and a reload. It holds no rules of its own.
"use strict";
(() => {
  const root = document.getElementById("recorder");
  if (!root) return;
  const base = root.dataset.base;
  // The device's copies (queue, draft) are the session's own, under its tag (forget.js, run before this
  // script, drops another session's).
  const tag = (document.cookie.match(/(?:^|; )tablelog_tag=([^;]*)/) || [])[1] || "";
  const storeKey = `tablelog.record.${tag}.${root.dataset.club}.${root.dataset.game}`;
  const schema = JSON.parse(document.getElementById("schema").textContent);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (id) => document.getElementById(id);
  // The page's words in the reader's language (the server fills them in), with their {placeholders}.
  const pageWords = JSON.parse(document.getElementById("words").textContent);
  const t = (key, args = {}) => pageWords[key].replace(/\{(\w+)\}/g, (_, name) => String(args[name]));

  // -- what the device remembers: the last known choices, the queue, the draft, a conflict ----------------
  const fresh = JSON.parse(document.getElementById("payload").textContent);
  const saved = JSON.parse(localStorage.getItem(storeKey) || "null");
  const memory = saved && saved.data.version >= fresh.version ? saved : { data: fresh, queue: [], draft: [], conflict: null };
  if (saved && saved.data.version < fresh.version)
    Object.assign(memory, { queue: saved.queue, draft: saved.draft, conflict: saved.conflict, lastGroup: saved.lastGroup });
  let online = navigator.onLine;
  let picks = []; // what was tapped in the picture: the choices shown name all of it
  let flushing = false;
  const save = () => localStorage.setItem(storeKey, JSON.stringify(memory));

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
  const words = (tag) => {
    const name = tag.split(".").pop().replace(/_/g, " ");
    return name.charAt(0).toUpperCase() + name.slice(1);
  };

  // An event the form made, in words for the waiting list (a listed choice comes with the game's own
  // label): its type, then each field given, a seat by its player's name: "Drew: seat Bea · card mine".
  const seatName = (seat) => {
    for (const table of memory.data.tables) for (const s of table.seats) if (s.seat === seat) return s.name;
    return String(seat);
  };
  const valueWords = (value) => {
    if (Array.isArray(value)) return value.map((v) => (Array.isArray(v) ? `(${valueWords(v)})` : valueWords(v))).join(", ");
    if (value === true || value === false) return value ? "yes" : "no";
    if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => `${k.replace(/_/g, " ")} ${valueWords(v)}`).join(", ");
    return String(value).replace(/_/g, " ");
  };
  const summary = (event) => {
    const given = Object.entries(event).filter(([k, v]) => k !== "type" && v !== null && !(Array.isArray(v) && !v.length));
    const said = given.map(([k, v]) =>
      perSeat(propsOf(event.type)[k])
        ? v.map((list, seat) => `${whose(seat, k)}: ${valueWords(list) || "none"}`).join("; ")
        : `${k.replace(/_/g, " ")} ${(memory.data.seat_fields || ["seat"]).includes(k) && typeof v === "number" ? seatName(v) : valueWords(v)}`
    );
    return words(event.type) + (said.length ? `: ${said.join(" · ")}` : "");
  };
  // A field given seat by seat (a deal's hands: a list of card names per seat) is asked and told per player.
  const perSeat = (prop) => {
    const items = prop && itemsOf(prop);
    const inner = items && itemsOf(items);
    return Boolean(inner && enumOf(inner));
  };
  const whose = (seat, field) => `${seatName(seat)}'s ${field.replace(/_/g, " ").replace(/s$/, "")}`;
  const seatsAtTable = () => (memory.data.tables[0] ? memory.data.tables[0].seats.map((s) => s.seat) : []);

  // Every event waiting (queued, then gathered), in order, and the table of choices after them where the
  // look-ahead reaches (null: later taps are checked when sent).
  const pendingEvents = () => [...memory.queue.flatMap((b) => b.events), ...memory.draft];
  const queuedCount = () => memory.queue.reduce((n, b) => n + b.events.length, 0);
  function cursor() {
    let at = 0;
    for (const item of pendingEvents()) {
      if (at === null) return null;
      at = item.then ?? null;
    }
    return at;
  }
  function findChoice(table, event) {
    if (!table) return null;
    for (const seat of table.seats) for (const c of seat.choices) if (same(c.event, event)) return c;
    return null;
  }

  // -- drawing the page ---------------------------------------------------------------------------------
  function render() {
    const data = memory.data;
    $("version").textContent = String(data.version);
    const waiting = queuedCount();
    $("waiting").textContent = String(waiting);
    $("waiting-words").textContent = t(waiting === 1 ? "wait_one" : "wait_many");
    $("connection").textContent = t(online ? "online" : "offline");
    $("connection").className = t(online ? "online" : "offline");
    $("picture").innerHTML = data.picture;
    const told = $("told");
    told.replaceChildren(
      ...[...data.told].reverse().map((line) => {
        const li = document.createElement("li");
        li.value = line.version;
        li.textContent = line.text;
        if (line.voided) li.className = "voided";
        return li;
      })
    );
    renderList($("queue-list"), memory.queue.flatMap((b) => b.events.map((e) => ({ ...e, problem: b.problem }))));
    $("queue").hidden = waiting === 0;
    renderList($("gathered-list"), memory.draft);
    $("gathered").hidden = memory.draft.length === 0;
    $("record-gathered").textContent = t("record_these", { count: memory.draft.length });
    renderConflict();
    renderChoices();
  }

  function renderList(list, items) {
    list.replaceChildren(
      ...items.map((item) => {
        const li = document.createElement("li");
        li.textContent = item.label + (item.then === undefined || item.then === null ? t("checked_when_sent") : "");
        if (item.problem) li.className = "refused";
        return li;
      })
    );
  }

  function renderChoices() {
    const box = $("choices");
    box.replaceChildren();
    if (memory.conflict) return;
    const at = cursor();
    const table = at === null ? null : memory.data.tables[at];
    if (!table) {
      const p = document.createElement("p");
      p.className = "meta";
      p.textContent = t("ahead_unknown");
      box.append(p);
      return;
    }
    let offered = 0;
    if (picks.length) {
      const bar = document.createElement("p");
      bar.className = "picked";
      bar.textContent = t("picked", { picks: picks.map((p) => p.name).join(" → ") });
      const clear = document.createElement("button");
      clear.type = "button";
      clear.id = "clear-picks";
      clear.textContent = t("clear");
      clear.addEventListener("click", () => {
        picks = [];
        document.querySelectorAll("#picture .chosen").forEach((e) => e.classList.remove("chosen"));
        renderChoices();
      });
      bar.append(clear);
      box.append(bar);
    }
    const listed = table.seats.reduce((n, s) => n + s.choices.length, 0);
    if (listed > FOLD_ABOVE) box.append(filterBox());
    for (const full of table.seats) {
      const seat = { ...full, choices: full.choices.filter((c) => picks.every((p) => matches(c.event, p.match))) };
      if (seat.enumerable && seat.choices.length === 0) continue;
      const section = document.createElement("section");
      section.className = "seat";
      section.dataset.seat = String(seat.seat);
      const h = document.createElement("h2");
      h.textContent = t(seat.enumerable ? "may" : "cannot_list", { seat: seat.name });
      section.append(h);
      // Groups by what the table is doing (the game's own, in its order), else by event type. A long
      // group is folded (details/summary) unless it is the group last tapped in or the filter is in use.
      const groups = new Map();
      const wanted = filterText.trim().toLowerCase();
      for (const choice of seat.choices) {
        if (wanted && !choice.label.toLowerCase().includes(wanted)) continue;
        const name = choice.group || words(choice.event.type);
        if (!groups.has(name)) groups.set(name, []);
        groups.get(name).push(choice);
      }
      const folding = seat.choices.length > FOLD_ABOVE;
      let place = 0;
      for (const [name, choices] of groups) {
        const first = place++ === 0;
        const tag = choices[0].event.type;
        const group = document.createElement(folding ? "details" : "div");
        group.className = "group";
        group.dataset.type = tag;
        group.dataset.group = name;
        const gh = document.createElement(folding ? "summary" : "h3");
        gh.textContent = folding ? t("group_count", { group: name, count: choices.length }) : name;
        group.append(gh);
        // Open: what the filter found, the group last tapped in, or a short first group (a battle's defence).
        if (folding) group.open = Boolean(wanted) || name === memory.lastGroup || (first && choices.length <= FOLD_ABOVE);
        for (const choice of choices) {
          const button = document.createElement("button");
          button.type = "button";
          button.className = "choice";
          button.textContent = choice.label;
          button.dataset.event = JSON.stringify(choice.event);
          button.addEventListener("click", () => {
            memory.lastGroup = name; // the group opens again at the next decision
            tapped(choice, button);
          });
          group.append(withMore(choice, button));
          // A null the game lists beside named variants of the same event is a choice of its own (a storm
          // used on nobody), not a card the record does not know: nothing to name there.
          const fields = editable(choice.event).filter(
            (f) => f.path.length || !seat.choices.some((o) => o.event.type === choice.event.type && o.event[f.field] != null)
          );
          // A choice the game adds to (a play) is named a card at a time, never through a null field.
          if (fields.length && !choice.blank && !choice.more && !fields.some((f) => f.required)) {
            // A face-down draw is one tap; naming the card the table saw is the small button beside it.
            const name = document.createElement("button");
            name.type = "button";
            name.className = "name-it";
            name.textContent = t("name_the", { fields: [...new Set(fields.map((f) => f.field))].join(", ") });
            name.addEventListener("click", () => openEditor(choice, fields, name));
            group.append(name);
          }
          offered += 1;
        }
        section.append(group);
      }
      if (!seat.enumerable) {
        const open = document.createElement("button");
        open.type = "button";
        open.className = "big";
        open.textContent = t("open_form");
        open.addEventListener("click", () => {
          $("another").open = true;
          $("event-form").scrollIntoView();
        });
        section.append(open);
      }
      box.append(section);
    }
    if (!offered && !table.seats.some((s) => !s.enumerable)) {
      const p = document.createElement("p");
      p.className = "meta";
      p.textContent = picks.length
        ? t("nothing_picked")
        : memory.data.finished && pendingEvents().length === 0
          ? t("game_over")
          : t("nobody");
      box.append(p);
    }
  }

  // -- long decisions: a filter by card or target, the groups folded -----------------------------------------
  const FOLD_ABOVE = 8; // choices a seat shows unfolded: a phone screen of buttons
  let filterText = "";
  function filterBox() {
    const label = document.createElement("label");
    label.className = "filter";
    label.textContent = t("filter");
    const input = document.createElement("input");
    input.type = "search";
    input.id = "choice-filter";
    input.value = filterText;
    input.placeholder = t("filter_hint");
    input.addEventListener("input", () => {
      filterText = input.value;
      renderChoices();
      const again = $("choice-filter");
      again.focus();
      again.setSelectionRange(again.value.length, again.value.length);
    });
    label.append(input);
    return label;
  }

  function deepHas(value, target) {
    if (same(value, target)) return true;
    if (Array.isArray(value)) return value.some((v) => deepHas(v, target));
    if (value && typeof value === "object") return Object.entries(value).some(([k, v]) => k !== "type" && deepHas(v, target));
    return false;
  }
  // A pick names a field (`unit`) that an event holds alone or among several (`units`: an order).
  const holds = (event, k, v) => same(event[k], v) || (Array.isArray(event[`${k}s`]) && event[`${k}s`].some((x) => same(x, v)));
  const matches = (event, pick) => Object.entries(pick).some(([k, v]) => (k === "any" ? deepHas(event, v) : holds(event, k, v)));

  function showProblem(problem) {
    const box = $("problem");
    if (!problem) {
      box.hidden = true;
      return;
    }
    box.replaceChildren();
    const h = document.createElement("h2");
    h.textContent = problem.title || t("refused");
    const p = document.createElement("p");
    p.className = "detail";
    p.textContent = problem.detail || "";
    box.append(h, p);
    if (problem.rule_id) {
      const rule = document.createElement("p");
      rule.append("Rule ");
      const a = document.createElement("a");
      a.href = problem.rule_url || `/rulesets/${root.dataset.ruleset}/rules/${problem.rule_id}`;
      a.textContent = problem.rule_id;
      a.className = "rule-id";
      rule.append(a);
      box.append(rule);
    }
    box.hidden = false;
  }

  // -- taps ------------------------------------------------------------------------------------------------
  // A listed event whose chance the table reports (a face left null, dice given as placeholders) opens a
  // small editor first; everything else is recorded as listed.
  function propsOf(tag) {
    const def = schema.$defs[tag];
    return (def && def.properties) || {};
  }
  function resolve(prop) {
    if (prop && prop.$ref) return schema.$defs[prop.$ref.split("/").pop()] || prop;
    return prop || {};
  }
  function enumOf(prop) {
    prop = resolve(prop);
    if (prop.enum) return prop.enum;
    for (const option of prop.anyOf || prop.oneOf || []) {
      const found = enumOf(option);
      if (found) return found;
    }
    return null;
  }
  // The parts of a listed event the table may name (leaves of its fields, however nested): a card left
  // null (face down: naming it is optional) or a die given as a placeholder (it must be chosen). Values
  // come from the schema (the game's fixed names) or from the game's resources (`names`).
  function itemsOf(prop) {
    prop = resolve(prop);
    if (prop.type === "array") return prop.items || (prop.prefixItems || [])[0];
    for (const option of prop.anyOf || []) if (resolve(option).type === "array") return itemsOf(option);
    return null;
  }
  function editable(event) {
    const props = propsOf(event.type);
    const leaves = [];
    const walk = (field, value, prop, path) => {
      const items = itemsOf(prop);
      if (Array.isArray(value) && !value.length && items && enumOf(items)) {
        // Dice listed by count only (an empty list of faces): the faces are added as the dice show them.
        leaves.push({ field, path, values: enumOf(items).map((v) => [v, v]), required: true, grow: true });
        return;
      }
      if (Array.isArray(value)) {
        value.forEach((v, i) => walk(field, v, itemsOf(prop) || prop, [...path, i]));
        return;
      }
      const fixed = enumOf(prop);
      const values = fixed ? fixed.map((v) => [v, v]) : memory.data.names[field] || null;
      if (!values) return;
      if (value === null) leaves.push({ field, path, values, required: false });
      else if (typeof value === "string" && path.length && fixed) leaves.push({ field, path, values, required: true });
    };
    for (const [name, value] of Object.entries(event)) if (name !== "type") walk(name, value, props[name], []);
    return leaves;
  }
  function tapped(choice, button) {
    // A blank choice (the rules refuse it as listed): every part it leaves null must be named.
    const fields = editable(choice.event).map((f) => (choice.blank && !f.grow ? { ...f, required: true } : f));
    if (!fields.some((f) => f.required)) return take([{ event: choice.event, label: choice.label, then: choice.then }]);
    openEditor(choice, fields, button);
  }

  // "+ add a card": what the game may add to a choice (a bonus attached to a play, a special, a supply), asked
  // of the server on a tap, each one tap; an addition may take more in turn. The "+" sits beside its choice
  // in a row, so it costs no extra line on a phone.
  function withMore(choice, button) {
    if (!choice.more) return button;
    const more = document.createElement("button");
    more.type = "button";
    more.className = "add-more";
    more.textContent = "+";
    more.title = t("add_more");
    more.setAttribute("aria-label", t("add_more"));
    const row = document.createElement("div");
    row.className = "choice-row";
    row.append(button, more);
    more.addEventListener("click", () => openMore(choice, row));
    return row;
  }
  async function openMore(choice, row) {
    const next = row.nextElementSibling;
    if (next && next.classList.contains("more")) return next.remove();
    const box = document.createElement("div");
    box.className = "more";
    row.after(box);
    if (!online) {
      box.textContent = t("more_offline");
      return;
    }
    let body;
    try {
      const events = [...pendingEvents().map((i) => i.event), choice.event];
      const r = await post("/more", { expected_version: memory.data.version, events });
      if (r.status !== 200) {
        box.remove();
        return showProblem(await r.json());
      }
      body = await r.json();
    } catch (e) {
      box.remove();
      return setOnline(false);
    }
    const h = document.createElement("p");
    h.className = "meta";
    h.textContent = t(body.choices.length ? "more_of" : "more_none");
    box.append(h);
    for (const added of body.choices) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice-more";
      b.textContent = added.label;
      b.dataset.event = JSON.stringify(added.event);
      b.addEventListener("click", () => take([{ event: added.event, label: added.label, then: undefined }], true));
      box.append(withMore(added, b));
    }
  }

  function openEditor(choice, leaves, button) {
    document.querySelectorAll(".editor").forEach((e) => e.remove());
    const form = document.createElement("form");
    form.className = "editor";
    const note = document.createElement("p");
    note.textContent = choice.label;
    form.append(note);
    leaves.forEach((leaf, index) => {
      if (leaf.grow) {
        const box = document.createElement("fieldset");
        box.className = "faces";
        box.dataset.leaf = String(index);
        box.dataset.chosen = "[]";
        const legend = document.createElement("legend");
        const shown = () => {
          const chosen = JSON.parse(box.dataset.chosen);
          legend.textContent = `${words(leaf.field)}: ${chosen.length ? chosen.join(", ") : t("tap_each_die")}`;
        };
        box.append(legend);
        for (const [value, text] of leaf.values) {
          const face = document.createElement("button");
          face.type = "button";
          face.className = "face";
          face.dataset.face = value;
          face.textContent = text;
          face.addEventListener("click", () => {
            box.dataset.chosen = JSON.stringify([...JSON.parse(box.dataset.chosen), value]);
            shown();
          });
          box.append(face);
        }
        const undo = document.createElement("button");
        undo.type = "button";
        undo.className = "face";
        undo.textContent = t("take_back");
        undo.addEventListener("click", () => {
          box.dataset.chosen = JSON.stringify(JSON.parse(box.dataset.chosen).slice(0, -1));
          shown();
        });
        box.append(undo);
        shown();
        form.append(box);
        return;
      }
      const label = document.createElement("label");
      label.textContent = `${words(leaf.field)} ${leaf.path.map((i) => i + 1).join(" · ")} `;
      const select = document.createElement("select");
      select.dataset.leaf = String(index);
      select.append(new Option(t(leaf.required ? "choose" : "face_down"), ""));
      for (const [value, text] of leaf.values) select.append(new Option(text, value));
      label.append(select);
      form.append(label);
    });
    const ok = document.createElement("button");
    ok.type = "submit";
    ok.className = "big primary";
    ok.textContent = t("record");
    form.append(ok);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const event = JSON.parse(JSON.stringify(choice.event));
      const named = [];
      for (const box of form.querySelectorAll("fieldset.faces")) {
        const leaf = leaves[Number(box.dataset.leaf)];
        const chosen = JSON.parse(box.dataset.chosen);
        if (!chosen.length) return showProblem({ title: t("not_complete"), detail: t("tap_each", { field: words(leaf.field).toLowerCase() }) });
        event[leaf.field] = chosen;
        named.push(chosen.join(", "));
      }
      for (const select of form.querySelectorAll("select")) {
        const leaf = leaves[Number(select.dataset.leaf)];
        if (leaf.required && !select.value) return showProblem({ title: t("not_complete"), detail: t("choose_every", { field: words(leaf.field).toLowerCase() }) });
        let holder = event;
        const path = [leaf.field, ...leaf.path];
        for (const step of path.slice(0, -1)) holder = holder[step];
        holder[path[path.length - 1]] = select.value || null;
        if (select.value) named.push(select.selectedOptions[0].textContent);
      }
      form.remove();
      const listed = same(event, choice.event);
      take([{ event, label: choice.label + (listed ? "" : ` (${named.join(", ")})`), then: listed ? choice.then : undefined }], !listed);
    });
    button.after(form);
    form.querySelector("select, button").focus();
  }

  // Events a tap adds: straight to the queue (and sent), or to the draft when gathering. Events the
  // look-ahead does not list are checked by the server first when it can be reached.
  async function take(items, needsCheck = false) {
    showProblem(null);
    picks = [];
    filterText = "";
    if (needsCheck || items.some((i) => i.then === undefined)) {
      const refusal = await checkFirst(items.map((i) => i.event));
      if (refusal) return showProblem(refusal);
    }
    if ($("gather").checked) memory.draft.push(...items);
    else enqueue(items);
    save();
    render();
    flush();
  }

  async function checkFirst(events) {
    if (!online) {
      const at = cursor();
      const table = at === null ? null : memory.data.tables[at];
      for (const event of events) {
        if (!table || event.type === "tablelog.correction") return null;
        const seat = table.seats.find((s) => s.seat === event.seat);
        if (seat && seat.enumerable && !seat.choices.some((c) => c.event.type === event.type)) {
          return { title: t("rules_refuse"), detail: t("not_allowed", { seat: seat.name, event: words(event.type) }), rule_id: "G-1", rule_url: "/rulesets/" + root.dataset.ruleset + "/rules/G-1" };
        }
      }
      return null; // checked when sent
    }
    const before = pendingEvents().map((i) => i.event);
    try {
      const r = await post("/check", { expected_version: memory.data.version, events: [...before, ...events] });
      if (r.status === 200) return null;
      const problem = await r.json();
      if (problem.event_index !== undefined && problem.event_index >= before.length) problem.event_index -= before.length;
      return r.status === 409 ? null : problem;
    } catch (e) {
      setOnline(false);
      return null;
    }
  }

  function enqueue(items) {
    const expected = memory.data.version + queuedCount();
    memory.queue.push({ key: newKey(), expected, events: items, problem: null });
  }

  // -- sending, in order, each batch once ---------------------------------------------------------------------
  const post = (path, body, key) =>
    fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrftoken": csrf, ...(key ? { "Idempotency-Key": key } : {}) },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });

  function setOnline(value) {
    if (online === value) return;
    online = value;
    render();
  }

  async function flush() {
    if (flushing || memory.conflict) return;
    flushing = true;
    try {
      while (memory.queue.length && !memory.conflict) {
        const batch = memory.queue[0];
        if (batch.problem) break; // refused: waits for the scorekeeper (never dropped silently)
        let response;
        try {
          response = await post("/events", { expected_version: batch.expected, events: batch.events.map((i) => i.event) }, batch.key);
        } catch (e) {
          setOnline(false);
          break;
        }
        online = true;
        if (response.status === 201) {
          const body = await response.json();
          memory.queue.shift();
          memory.data = body.choices;
          relink();
          save();
          render();
          continue;
        }
        const problem = await response.json().catch(() => ({ title: t("server_answered", { status: response.status }) }));
        if (response.status === 409) await conflict(batch.expected);
        else {
          batch.problem = problem;
          save();
          showProblem(problem);
          offerDrop();
        }
        break;
      }
    } finally {
      flushing = false;
      render();
    }
  }

  // After new choices arrive, find the waiting events in the new look-ahead again.
  function relink() {
    let at = 0;
    for (const item of pendingEvents()) {
      const table = at === null ? null : memory.data.tables[at];
      const choice = findChoice(table, item.event);
      item.then = choice ? choice.then : undefined;
      at = choice ? choice.then ?? null : null;
    }
  }

  function offerDrop() {
    const box = $("problem");
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "big danger";
    drop.textContent = t("drop_refused");
    drop.addEventListener("click", () => {
      memory.queue = [];
      save();
      showProblem(null);
      render();
    });
    box.append(drop);
  }

  // -- two scorekeepers: the game moved on under us ----------------------------------------------------------
  async function conflict(since) {
    try {
      const r = await fetch(base + "/choices", { credentials: "same-origin" });
      memory.conflict = { since, mine: pendingEvents().map((i) => ({ event: i.event, label: i.label })) };
      memory.data = await r.json();
    } catch (e) {
      setOnline(false);
      return;
    }
    save();
    render();
  }

  function renderConflict() {
    const box = $("conflict");
    const c = memory.conflict;
    if (!c) {
      box.hidden = true;
      return;
    }
    box.replaceChildren();
    const h = document.createElement("h2");
    h.textContent = t("someone_else");
    const p = document.createElement("p");
    p.textContent = t("moved_on", { since: c.since, version: memory.data.version });
    const theirs = document.createElement("ol");
    theirs.className = "theirs";
    for (const line of memory.data.told.filter((l) => l.version > c.since)) {
      const li = document.createElement("li");
      li.value = line.version;
      li.textContent = line.text;
      theirs.append(li);
    }
    const q = document.createElement("p");
    q.textContent = t("yours", { count: c.mine.length });
    const mine = document.createElement("ol");
    mine.className = "mine";
    for (const item of c.mine) {
      const li = document.createElement("li");
      li.textContent = item.label;
      mine.append(li);
    }
    const again = document.createElement("button");
    again.type = "button";
    again.className = "big primary";
    again.id = "reapply";
    again.textContent = t("mine_after");
    again.addEventListener("click", reapply);
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "big";
    drop.id = "drop-mine";
    drop.textContent = t("leave_mine");
    drop.addEventListener("click", () => {
      memory.conflict = null;
      memory.queue = [];
      memory.draft = [];
      save();
      render();
    });
    box.append(h, p, theirs, q, mine, again, drop);
    box.hidden = false;
  }

  async function reapply() {
    const mine = memory.conflict.mine;
    let r;
    try {
      r = await post("/check", { expected_version: memory.data.version, events: mine.map((i) => i.event) });
    } catch (e) {
      return setOnline(false);
    }
    if (r.status === 409) return conflict(memory.conflict.since);
    if (r.status !== 200) return showProblem(await r.json());
    memory.conflict = null;
    memory.queue = [];
    memory.draft = [];
    enqueue(mine.map((i) => ({ ...i, then: undefined })));
    relink();
    save();
    render();
    flush();
  }

  // -- the form for events the game cannot list, the undo ------------------------------------------------
  function buildForm() {
    const form = $("event-form");
    const tags = Object.keys(schema.$defs).filter((t) => t.includes(".") && propsOf(t).type && t !== "tablelog.game_started");
    const type = document.createElement("select");
    type.id = "form-type";
    for (const t of tags) type.append(new Option(words(t), t));
    const fields = document.createElement("div");
    const add = document.createElement("button");
    add.type = "submit";
    add.className = "big primary";
    add.textContent = t("add_event");
    const label = document.createElement("label");
    label.append("Event ", type);
    form.append(label, fields, add);
    const draw = () => {
      fields.replaceChildren();
      for (const [name, prop] of Object.entries(propsOf(type.value))) {
        if (name === "type") continue;
        if (perSeat(prop)) {
          for (const seat of seatsAtTable()) {
            const l = document.createElement("label");
            l.append(`${whose(seat, name)} `);
            const input = document.createElement("input");
            Object.assign(input, { name, placeholder: "comma-separated" });
            Object.assign(input.dataset, { kind: "per-seat", seat: String(seat) });
            l.append(input);
            fields.append(l);
          }
          continue;
        }
        const l = document.createElement("label");
        l.append(`${words(name)} `);
        const values = enumOf(prop);
        let input;
        if ((memory.data.seat_fields || ["seat"]).includes(name) && !itemsOf(prop)) {
          // A seat is a player, counted from 1 as the start form counts them (never a number from 0).
          input = document.createElement("select");
          input.append(new Option("(none)", ""));
          for (const seat of seatsAtTable()) input.append(new Option(t("seat_n", { n: seat + 1, name: seatName(seat) }), String(seat)));
        } else if (values && !itemsOf(prop)) {
          input = document.createElement("select");
          input.append(new Option("(none)", ""));
          for (const v of values) input.append(new Option(v, v));
        } else {
          input = document.createElement("input");
          const items = itemsOf(prop);
          input.placeholder = items ? "comma-separated" : resolve(prop).type === "integer" ? "a number" : "";
        }
        input.name = name;
        input.dataset.kind = itemsOf(prop) ? "array" : JSON.stringify(resolve(prop).type || (resolve(prop).anyOf || []).map((o) => resolve(o).type));
        l.append(input);
        fields.append(l);
      }
    };
    type.addEventListener("change", draw);
    draw();
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const event = { type: type.value };
      for (const input of fields.querySelectorAll("input, select")) {
        const raw = input.value.trim();
        if (input.dataset.kind === "per-seat") {
          // Every seat's list is sent once any is given (an empty one: nothing known of that hand).
          const lists = event[input.name] || seatsAtTable().map(() => []);
          lists[Number(input.dataset.seat)] = raw.split(",").map((s) => s.trim()).filter(Boolean);
          if (raw || event[input.name]) event[input.name] = lists;
          continue;
        }
        if (!raw) continue;
        if (input.dataset.kind === "array") {
          const parts = raw.split(",").map((s) => s.trim()).filter(Boolean);
          event[input.name] = parts.map((s) => (/^-?\d+$/.test(s) ? Number(s) : s));
        } else if (input.dataset.kind.includes("integer") && /^-?\d+$/.test(raw)) event[input.name] = Number(raw);
        else if (raw === "true" || raw === "false") event[input.name] = raw === "true";
        else event[input.name] = raw;
      }
      take([{ event, label: summary(event), then: undefined }], true);
    });
  }

  $("undo-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const reason = $("undo-text").value.trim() || $("undo-reason").value || "correction";
    const event = { type: "tablelog.correction", voids: 1, reason };
    take([{ event, label: t("correction", { reason }), then: undefined }], true);
    $("undo").open = false;
  });
  $("record-gathered").addEventListener("click", () => {
    const items = memory.draft;
    memory.draft = [];
    enqueue(items);
    save();
    render();
    flush();
  });
  $("clear-gathered").addEventListener("click", () => {
    memory.draft = [];
    save();
    render();
  });

  window.addEventListener("online", () => {
    setOnline(true);
    flush();
  });
  window.addEventListener("offline", () => setOnline(false));
  setInterval(() => {
    if (memory.queue.length && !flushing) flush();
  }, 2000);

  // The shell, kept by a service worker so a reload without a connection still opens this page.
  if ("serviceWorker" in navigator) {
    const scope = `/club/${root.dataset.club}/`;
    navigator.serviceWorker
      .register(`${scope}record-sw.js`, { scope })
      .then(() => navigator.serviceWorker.ready)
      .then(() => {
        const keep = () => fetch(location.href, { credentials: "same-origin" }).then(() => (root.dataset.shell = "kept")).catch(() => {});
        if (navigator.serviceWorker.controller) keep();
        else navigator.serviceWorker.addEventListener("controllerchange", keep, { once: true });
      })
      .catch(() => {});
  }

  $("zoom").addEventListener("click", () => {
    const zoomed = $("picture").classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", String(zoomed));
    // A board drawn wider than a standard one (Overlord: two boards side by side) is zoomed as much more,
    // so its hexes and words are as large as a standard board's under the thumb; the picture pans.
    const svg = $("picture").querySelector("svg");
    const across = svg && svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
    $("picture").style.setProperty("--zoom", `${Math.round(220 * Math.max(1, across / 820))}%`);
  });
  $("picture").addEventListener("click", (e) => {
    const element = e.target.closest("[data-pick]");
    if (!element) return;
    picks.push({ match: JSON.parse(element.dataset.pick), name: element.dataset.pickName });
    element.classList.add("chosen");
    renderChoices();
    $("choices").scrollIntoView({ block: "start" });
  });

  buildForm();
  relink();
  render();
  root.dataset.ready = "true";
  flush();
})();
