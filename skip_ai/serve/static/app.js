// The page of `skip-ai serve`: a form to open a table, the table drawn from the server's
// view (skip_ai/serve/views.py), and the recorded games with a replay bar. The server decides
// everything a seat may see; this file only draws what it is sent.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
const CARD_TOKEN = /[2-9TJQKA][scdh]|BJ|RJ|Pe[123]/g;  // as views.CARD_TOKEN

let GAMES = [];          // /api/games
let AGENTS = null;       // /api/agents: the bots this server offers
let current = null;      // the view shown
let poller = 0;          // increments to stop an old poll loop
let selected = null;     // the hand card picked when it has several moves
let replay = null;       // {index, pos, positions, seat, timer}
let recordsQuery = { offset: 0 };

async function api(method, url, body, extra) {
  // every body is JSON, sent as such: the server refuses any other
  const opts = { method, headers: {}, ...(extra || {}) };
  if (body !== undefined) {
    opts.body = JSON.stringify(body);
    opts.headers["Content-Type"] = "application/json";
  }
  const res = await fetch(url, opts);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// ----- cards ------------------------------------------------------------------------------
function cardEl(card, extra) {
  const e = el("div", "card" + (extra ? " " + extra : ""));
  if (!card || card.back) {
    e.classList.add("back");
    e.title = "face down";
    return e;
  }
  const t = card.t;
  e.dataset.c = card.c;
  e.title = t;
  const corner = el("div", "corner");
  if (t === "BJ" || t === "RJ") {
    e.classList.add("joker");
    if (t === "RJ") e.classList.add("red");
    corner.append(el("span", "", "★"));
    e.append(corner, el("div", "pip", "JOKER"));
  } else if (t.startsWith("Pe")) {
    e.classList.add("pelican");
    corner.append(el("span", "", "P" + t[2]));
    e.append(corner, el("div", "pip", "PELICAN"));
  } else {
    const rank = t[0] === "T" ? "10" : t[0];
    const suit = SUITS[t[1]];
    if (t[1] === "d" || t[1] === "h") e.classList.add("red");
    corner.append(el("span", "", rank), el("span", "s", suit));
    e.append(corner, el("div", "pip", suit));
  }
  return e;
}

function prettyText(text) {
  // card tokens in a move's text as coloured symbols: "Ts on Qh" -> "10♠ on Q♥"
  const out = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(CARD_TOKEN)) {
    out.append(text.slice(last, m.index));
    const t = m[0];
    let shown = t, red = t === "RJ";
    if (SUITS[t[1]] && t.length === 2) {
      shown = (t[0] === "T" ? "10" : t[0]) + SUITS[t[1]];
      red = t[1] === "d" || t[1] === "h";
    }
    out.append(el("span", red ? "suit-red" : "", shown));
    last = m.index + t.length;
  }
  out.append(text.slice(last));
  return out;
}

function prettySuits(text) {
  // a label that is a suit symbol, in its colour
  return el("span", text === "♦" || text === "♥" ? "suit-red" : "", text);
}

// ----- the setup form ---------------------------------------------------------------------
async function loadGames() {
  const [data, agents] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/agents")]);
  GAMES = data.games;
  AGENTS = agents;
  $("agent-caps").textContent = "Bots: " + agents.kinds.map((k) => k.name).join(", ") +
    ". " + agents.caps[0].toUpperCase() + agents.caps.slice(1) + ".";
  const sel = $("game");
  for (const g of GAMES) {
    const o = el("option", "", `${g.long_name} «${g.original_name}» (${g.name})`);
    o.value = g.name;
    sel.append(o);
  }
  if (data.records) setupRecords(data.records);
  else $("tab-records").classList.add("hidden");
  renderForm();
}

function gameInfo() { return GAMES.find((g) => g.name === $("game").value); }

function renderPresets() {
  // the offered bots: the server's presets, and the game's shipped model when it has one
  const list = $("agent-presets");
  list.replaceChildren();
  const learned = AGENTS.learned[$("game").value];
  for (const a of learned ? [...AGENTS.presets, learned] : AGENTS.presets) {
    const o = el("option");
    o.value = a;
    list.append(o);
  }
}

function defaultAgent() {
  // the server's default opponent for this game (GET /api/agents: defaults)
  return AGENTS.defaults[$("game").value] || "heuristic";
}

function paramSelect(p) {
  const lab = el("label", "", (p.label || p.name) + " ");
  lab.title = p.name;  // the code name, as in game strings
  const s = el("select");
  s.dataset.param = p.name;
  if (p.auto) {
    const o = el("option", "", `auto (${p.auto})`);
    o.value = "";
    s.append(o);
  }
  for (const c of p.choices) {
    const o = el("option", "", c === true ? "yes" : c === false ? "no" : String(c));
    o.value = String(c);
    if (!p.auto && c === p.default) o.selected = true;
    s.append(o);
  }
  s.title = p.doc;
  s.addEventListener("change", () => { renderSeatForm(); markRecommended(); });
  lab.append(s);
  return lab;
}

function renderForm() {
  const g = gameInfo();
  renderPresets();
  $("others").value = defaultAgent();
  $("agents").replaceChildren();  // another game: every bot seat starts at its default
  const box = $("params");
  box.replaceChildren();
  // the rules' own parameters first, then the levers (RULES §0.7: changes of the rules a
  // designer tries, each at the rule as written by default)
  for (const p of g.params.filter((q) => !q.lever)) box.append(paramSelect(p));
  const levers = g.params.filter((q) => q.lever);
  if (levers.length) {
    const group = el("div", "levers");
    group.append(el("div", "group-title", "Levers (changes of the rules to try)"));
    for (const p of levers) group.append(paramSelect(p));
    box.append(group);
  }
  const rec = g.recommended;
  $("recommended").classList.toggle("hidden", !rec);
  $("recommended-why").textContent = rec ? `${rec.variant} — ${rec.why}` : "";
  renderSeatForm();
  markRecommended();
}

function useRecommended() {
  // the form's parameter fields set to the game's recommended variant (GET /api/games)
  const rec = gameInfo().recommended;
  if (!rec) return;
  for (const [name, value] of Object.entries(rec.params)) {
    const s = document.querySelector(`#params select[data-param="${name}"]`);
    if (s) s.value = String(value);
  }
  renderSeatForm();
  markRecommended();
}

function markRecommended() {
  // "the form shows it" while every parameter field holds the recommended value
  const rec = gameInfo().recommended;
  const shown = !!rec && Object.entries(rec.params).every(([name, value]) => {
    const s = document.querySelector(`#params select[data-param="${name}"]`);
    return !s || s.value === String(value);
  });
  $("recommended-set").classList.toggle("hidden", !shown);
}

function numPlayers() {
  const s = document.querySelector('#params select[data-param="players"]');
  return s ? parseInt(s.value, 10) : gameInfo().players;
}

function renderSeatForm() {
  const n = numPlayers();
  const seat = $("seat");
  const was = seat.value;
  seat.replaceChildren();
  for (let q = 0; q < n; q++) {
    const o = el("option", "", `seat ${q}`);
    o.value = String(q);
    seat.append(o);
  }
  const watch = el("option", "", "none: watch the bots, every card open");
  watch.value = "watch";
  seat.append(watch);
  if ([...seat.options].some((o) => o.value === was)) seat.value = was;
  const box = $("agents");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let q = 0; q < n; q++) {
    const lab = el("label", "", `seat ${q} `);
    const inp = el("input");
    inp.setAttribute("list", "agent-presets");
    inp.value = old[q] || $("others").value || defaultAgent();
    inp.dataset.seat = q;
    lab.append(inp);
    box.append(lab);
  }
  markHumanSeat();
}

function markHumanSeat() {
  for (const inp of $("agents").querySelectorAll("input")) {
    const mine = inp.dataset.seat === $("seat").value;
    inp.disabled = mine;
    inp.placeholder = mine ? "you" : "";
    if (mine) inp.dataset.saved = inp.value;
    inp.value = mine ? "" : (inp.value || inp.dataset.saved || defaultAgent());
  }
}

function gameString() {
  const g = gameInfo();
  const parts = [];
  for (const s of $("params").querySelectorAll("select")) {
    if (s.value !== "") parts.push(`${s.dataset.param}=${s.value}`);
  }
  return parts.length ? `${g.name}(${parts.join(",")})` : g.name;
}

async function startTable(ev) {
  ev.preventDefault();
  $("setup-error").textContent = "";
  const seat = $("seat").value === "watch" ? null : parseInt($("seat").value, 10);
  const agents = [...$("agents").querySelectorAll("input")].map((i) => i.disabled ? "human" : i.value);
  const body = { game: gameString(), seat, agents, pace: parseFloat($("pace").value || "0"),
    auto_forced: $("auto-forced").checked };
  if ($("seed").value !== "") body.seed = parseInt($("seed").value, 10);
  $("setup-wait").classList.remove("hidden");
  try {
    const view = await api("POST", "/api/tables", body);
    stopReplay();
    showTable(view);
    poll(view.id, view.version);
  } catch (e) {
    $("setup-error").textContent = e.message;
  } finally {
    $("setup-wait").classList.add("hidden");
  }
}

async function poll(id, version) {
  const mine = ++poller;
  let after = version;
  while (mine === poller) {
    try {
      const view = await api("GET", `/api/tables/${id}?after=${after}`);
      if (mine !== poller) return;
      showLive(view);
      after = view.version;
      if (view.terminal || view.error) return;
    } catch (e) {
      if (mine === poller) $("table-error").textContent = e.message;
      return;
    }
  }
}

let sending = false;  // one move at a time: a second click before the answer is ignored

async function sendMove(action) {
  if (sending) return;
  sending = true;
  try {
    selected = null;
    const view = await api("POST", `/api/tables/${current.id}/move`, { action });
    showLive(view);
  } catch (e) {
    $("table-error").textContent = e.message;
  } finally {
    sending = false;
  }
}

// ----- the table --------------------------------------------------------------------------
function showLive(view) {
  // the answer to a move and a long poll can arrive in either order: never go back in time
  const same = current && current.id === view.id && !current.record;
  if (same && view.version <= current.version) return;
  showTable(view);
}

function showTable(view) {
  current = view;
  $("setup").classList.add("hidden");
  $("new-table").classList.toggle("hidden", !!view.record);
  $("records").classList.add("hidden");
  $("table").classList.remove("hidden");
  $("table-error").textContent = view.error || "";
  $("title").textContent = view.title;
  const turn = $("turn");
  turn.textContent = view.turn;
  turn.classList.toggle("mine", view.person !== null && view.to_move === view.person);
  renderFacts(view);
  const res = $("result");
  res.classList.toggle("hidden", !view.result);
  res.textContent = view.result || "";
  renderSeats(view);
  renderZones(view);
  renderHand(view);
  renderLog(view);
  renderWhy(view.search, view);
  $("details").textContent = view.details.join("\n");
}

function teamClass(team) { return team === null || team === undefined ? "" : "t" + team; }

function renderFacts(view) {
  const box = $("facts");
  box.replaceChildren();
  const facts = [...view.facts];
  if (view.team_game) facts.push("score " + view.scores.map((s) => `${s.name} ${s.value}`).join(" · "));
  for (const f of facts) {
    const e = el("span", "fact");
    e.append(prettyText(f));
    box.append(e);
  }
}

function renderSeats(view) {
  const box = $("seats");
  box.replaceChildren();
  const open = view.open || null;  // every hand, at the end of a person's game
  for (const s of view.seats) {
    const d = el("div", "seat" + (s.to_move && !view.terminal ? " to-move" : ""));
    d.dataset.seat = s.seat;
    const name = el("div", "name");
    if (s.team !== null) name.append(el("span", "dot " + teamClass(s.team)));
    name.append(el("span", "", `seat ${s.seat}`));
    if (s.role === "you") name.append(el("span", "tag you", "you"));
    if (s.role === "partner") name.append(el("span", "tag partner", "partner"));
    if (view.team_names && s.team !== null && view.players > 2) {
      name.append(el("span", "agent", view.team_names[s.team]));
    }
    d.append(name);
    if (s.agent && s.agent !== "human") d.append(el("div", "agent", s.agent));
    d.append(el("div", "count", `${s.count} card${s.count === 1 ? "" : "s"} in hand`));
    if (s.note) d.append(el("div", "note", s.note));
    const shown = open ? open[s.seat].cards : s.cards;
    const isHand = view.viewer === s.seat && !open;
    if (!isHand && (shown.length || s.hidden)) {
      const mini = el("div", "mini");
      for (const c of shown) mini.append(cardEl(c, "small"));
      if (!open) for (let i = 0; i < Math.min(s.hidden, 14); i++) mini.append(cardEl(null, "mini"));
      d.append(mini);
      if (!open && shown.length && s.hidden) {
        const knower = view.person !== null ? "you know" : `seat ${view.viewer} knows`;
        d.append(el("div", "agent", `face up: the cards ${knower} are there`));
      }
    }
    box.append(d);
  }
}

function renderZones(view) {
  const box = $("zones");
  box.replaceChildren();
  const targets = new Set(view.moves.map((m) => m.target).filter(Boolean));
  for (const z of view.zones) {
    const d = el("div", "zone " + teamClass(z.team));
    const title = el("div", "zone-title", z.title);
    if (z.note) title.append(el("span", "muted", z.note));
    d.append(title);
    if (z.kind === "row") d.append(rowEl(z));
    else if (z.kind === "piles") d.append(pilesEl(z));
    else if (z.kind === "grid") { d.append(gridEl(z, targets)); d.classList.add("wide"); }
    else if (z.kind === "pairs") d.append(pairsEl(z));
    if (z.kind === "piles" && z.piles.length > 6) d.classList.add("wide");
    if (z.kind === "row" && !z.small && z.cards.length > 12) d.classList.add("wide");
    box.append(d);
  }
}

function rowEl(z) {
  const r = el("div", "row" + (z.small ? " small" : ""));
  for (const c of z.cards) r.append(cardEl(c, z.small ? "small" : ""));
  const backs = z.backs || 0;
  for (let i = 0; i < Math.min(backs, 3); i++) r.append(cardEl(null, z.small ? "small" : ""));
  if (backs > 3) r.append(el("span", "empty", `+${backs - 3} face down`));
  if (!z.cards.length && !backs) r.append(el("span", "empty", "empty"));
  return r;
}

function pilesEl(z) {
  const box = el("div", "piles");
  for (const p of z.piles) {
    const d = el("div", "pile");
    d.dataset.key = p.key;
    const stack = el("div", "stack");
    for (const c of p.cards) stack.append(cardEl(c));
    d.append(stack);
    if (p.note) d.append(el("div", "pnote", p.note));
    box.append(d);
  }
  if (!z.piles.length) box.append(el("span", "empty", "no piles"));
  return box;
}

function gridEl(z, targets) {
  // a fixed grid (labels given) or an open table: the bounds of its cards and of the cells
  // the moves can reach ("cell:r,c")
  let rows, cols, r0 = 0, c0 = 0;
  const reach = [...targets].filter((t) => t.startsWith("cell:"))
    .map((t) => t.slice(5).split(",").map(Number));
  if (z.row_labels) {
    rows = z.row_labels.length;
    cols = z.col_labels.length;
  } else {
    const pts = z.cells.map((x) => [x.row, x.col]).concat(reach);
    if (!pts.length) pts.push([0, 0]);
    r0 = Math.min(...pts.map((p) => p[0]));
    c0 = Math.min(...pts.map((p) => p[1]));
    rows = Math.max(...pts.map((p) => p[0])) - r0 + 1;
    cols = Math.max(...pts.map((p) => p[1])) - c0 + 1;
  }
  const labelled = !!z.row_labels;
  const g = el("div", "grid");
  g.style.gridTemplateColumns = (labelled ? "auto " : "") + `repeat(${cols}, var(--card-w))`;
  const at = new Map(z.cells.map((x) => [`${x.row},${x.col}`, x]));
  if (labelled) {
    g.append(el("span", "lab"));
    for (const c of z.col_labels) g.append(el("span", "lab", c));
  }
  for (let r = 0; r < rows; r++) {
    if (labelled) {
      const lab = el("span", "lab rlab");
      lab.append(prettySuits(z.row_labels[r]));
      g.append(lab);
    }
    for (let c = 0; c < cols; c++) {
      const key = `${r + r0},${c + c0}`;
      const cell = at.get(key);
      if (cell) {
        g.append(cardEl(cell.card, cell.last ? "last" : ""));
      } else {
        const slot = el("div", "slot");
        slot.dataset.key = "cell:" + key;
        g.append(slot);
      }
    }
  }
  return g;
}

function pairsEl(z) {
  const box = el("div", "pairs");
  for (const p of z.pairs) {
    const d = el("div", "pair");
    d.append(cardEl(p.card));
    if (p.cover) d.append(cardEl(p.cover, "cover"));
    if (p.note) d.append(el("span", "pnote", p.note));
    box.append(d);
  }
  if (!z.pairs.length) box.append(el("span", "empty", "nothing picked yet"));
  return box;
}

function renderHand(view) {
  const area = $("hand-area");
  const me = view.viewer === null ? null : view.seats[view.viewer];
  area.classList.toggle("hidden", !me || (view.terminal && !me.cards.length));
  if (!me) return;
  $("hand-title").textContent = view.person === me.seat ? `Your hand (seat ${me.seat})`
    : `Seat ${me.seat}'s hand`;
  const byCard = new Map();  // hand card -> the moves that play it
  for (const m of view.moves) {
    for (const c of m.cards) {
      const list = byCard.get(c.c) || [];
      list.push(m);
      byCard.set(c.c, list);
    }
  }
  if (selected !== null && !byCard.has(selected)) selected = null;
  const staged = tableCards(view.zones);  // hand cards already laid out (an attack being built)
  const hand = $("hand");
  hand.replaceChildren();
  for (const c of me.cards) {
    const e = cardEl(c);
    if (staged.has(c.c)) {
      e.classList.add("staged");
      e.title += ": on the table already, still yours";
    }
    if (byCard.has(c.c)) {
      e.classList.add("playable");
      e.addEventListener("click", () => pickCard(c.c, byCard.get(c.c)));
    } else if (view.moves.length) {
      e.classList.add("dim");
    }
    if (selected === c.c) e.classList.add("selected");
    hand.append(e);
  }
  if (!me.cards.length) hand.append(el("span", "empty", "no cards"));
  const box = $("moves");
  box.replaceChildren();
  const shown = selected !== null ? byCard.get(selected) : view.moves.filter((m) => !m.cards.length);
  if (view.moves.length && selected === null && byCard.size) {
    box.append(el("div", "hint", "Click a card to play it" +
      (shown.length ? ", or choose:" : ".")));
  }
  if (selected !== null) box.append(el("div", "hint", "Choose where it goes (or click the card again):"));
  for (const m of shown) {
    const b = el("button", "move-btn");
    b.dataset.action = m.a;
    b.title = m.label;
    b.append(prettyText(m.label));
    b.addEventListener("click", () => sendMove(m.a));
    box.append(b);
  }
  markTargets(selected !== null ? byCard.get(selected) : []);
}

function tableCards(obj, found = new Set()) {
  // every face-up card id in the zones (a card is {c, t} under card, cover or cards)
  if (Array.isArray(obj)) obj.forEach((x) => tableCards(x, found));
  else if (obj && typeof obj === "object") {
    if (obj.c !== undefined) found.add(obj.c);
    else Object.values(obj).forEach((x) => tableCards(x, found));
  }
  return found;
}

function pickCard(c, moves) {
  if (moves.length === 1) { sendMove(moves[0].a); return; }
  selected = selected === c ? null : c;
  renderHand(current);
}

function markTargets(moves) {
  for (const m of moves) {
    if (!m.target) continue;
    const spot = document.querySelector(`#zones [data-key="${m.target}"]`);
    if (!spot) continue;
    spot.classList.add("target");
    spot.addEventListener("click", () => sendMove(m.a), { once: true });
  }
}

function renderLog(view) {
  const box = $("log");
  box.replaceChildren();
  for (const e of view.log) {
    const li = el("li", e.seat === view.person ? "mine" : "");
    li.append(el("span", "who", e.who + ": "));
    li.append(prettyText(e.text));
    if (e.why) {
      li.classList.add("why-link");
      li.title = "why the bot moved";
      li.addEventListener("click", async () => {
        try { renderWhy(await api("GET", `/api/tables/${view.id}/why/${e.i}`), view); }
        catch (err) { $("why").textContent = err.message; }
      });
    }
    box.append(li);
  }
  box.scrollTop = box.scrollHeight;
}

function renderWhy(search, view) {
  const box = $("why");
  if (!search) {
    box.className = "why muted";
    box.textContent = view.record ? "Records keep no search statistics; watch or play a table for them."
      : "A searching bot's statistics show here after it moves.";
    return;
  }
  box.className = "why";
  box.replaceChildren();
  const agent = view.seats[search.seat].agent;
  if (!search.full) {
    // the bot knew cards you do not: its moves, visits and values would tell of them
    const line = el("div", "", `seat ${search.seat} (${agent}) played `);
    line.append(prettyText(search.rows[0].label));
    box.append(line, el("p", "muted", "While the game is on its search stays hidden: how " +
      "many moves it weighed, their visits and values all come from cards you cannot see. " +
      "Everything shows once the game is over."));
    return;
  }
  if (search.forced) {
    box.append(el("div", "", `seat ${search.seat} (${agent}): a forced move, its only legal one`));
    return;
  }
  const took = search.seconds < 1 ? `${Math.round(1000 * search.seconds)} ms`
    : `${search.seconds.toFixed(1)} s`;
  box.append(el("div", "", `seat ${search.seat} (${agent}): ${search.iterations} iterations in ` +
    `${took} over ${search.moves} moves`));
  const t = el("table");
  const head = el("tr");
  for (const h of ["move", "visits", "share", "value"]) head.append(el("th", "", h));
  t.append(head);
  for (const r of search.rows) {
    const tr = el("tr", r.chosen ? "chosen" : "");
    const name = el("td");
    name.append(prettyText(r.label));
    const bar = el("span", "bar");
    bar.style.width = `${Math.round(50 * r.share)}px`;
    const share = el("td");
    share.append(bar, ` ${(100 * r.share).toFixed(0)}%`);
    tr.append(name, el("td", "", String(r.visits)), share, el("td", "", r.value.toFixed(3)));
    t.append(tr);
  }
  box.append(t);
  box.append(el("p", "muted", "value: the mean outcome of the move's playouts for the bot, " +
    "0 (worst) to 1 (best)."));
}

// ----- recorded games ---------------------------------------------------------------------
function setupRecords(facets) {
  $("records-folder").textContent = `${facets.folder}: ${facets.total} games, ` +
    `${facets.replayable} replayable`;
  if (facets.skipped_total) {
    const named = facets.skipped.map((s) => `${s.match_id} (${s.why})`).join("; ");
    const more = facets.skipped_total > facets.skipped.length ? "; …" : "";
    $("records-skipped").textContent = `${facets.skipped_total} record` +
      `${facets.skipped_total === 1 ? "" : "s"} set aside, not listed: ${named}${more}`;
    $("records-skipped").classList.remove("hidden");
  }
  const fill = (id, values) => {
    for (const v of values) {
      const o = el("option", "", v);
      o.value = v;
      $(id).append(o);
    }
    $(id).addEventListener("change", () => { recordsQuery.offset = 0; loadRecords(); });
  };
  fill("f-agent", facets.agents);
  fill("f-game", facets.games);
  fill("f-result", facets.results);
  for (const o of $("f-result").options) {
    if (facets.result_words && facets.result_words[o.value]) o.textContent = facets.result_words[o.value];
  }
  // the columns: who played which team and the scores, both in the game's team order
  const head = document.querySelector("#records-table thead tr");
  head.replaceChildren(...["#", "game", "players", "who played which side", "result",
    "score (team order)", "moves", ""].map((h) => el("th", "", h)));
}

function sidesText(r, withScore) {
  // "Red: heuristic · Black: random", or with the scores "Red 8 · Black 5"
  return r.sides.map((s) => withScore ? `${s.name} ${s.score ?? "-"}` : `${s.name}: ${s.agents}`)
    .join(" · ");
}

async function loadRecords() {
  const q = new URLSearchParams({
    agent: $("f-agent").value, game: $("f-game").value, result: $("f-result").value,
    offset: recordsQuery.offset,
  });
  try {
    const data = await api("GET", "/api/records?" + q);
    recordsQuery.total = data.total;
    const body = document.querySelector("#records-table tbody");
    body.replaceChildren();
    for (const r of data.rows) {
      const tr = el("tr", r.replayable ? "" : "norep");
      const cells = [r.index, r.game, r.players, sidesText(r, false), r.outcome,
        r.scores ? sidesText(r, true) : "-", r.moves ?? "-"];
      for (const c of cells) tr.append(el("td", "", String(c)));
      const act = el("td");
      if (r.replayable) {
        const b = el("button", "", "replay");
        b.addEventListener("click", () => openReplay(r.index, 0, "open"));
        act.append(b);
      } else {
        act.textContent = r.status === "ok" ? "no action history: not replayable"
          : `failed: not replayable`;
      }
      tr.append(act);
      body.append(tr);
    }
    const end = Math.min(data.offset + data.page, data.total);
    $("page-info").textContent = data.total ? `${data.offset + 1}–${end} of ${data.total}` : "no games";
    $("records-error").textContent = "";
  } catch (e) {
    $("records-error").textContent = e.message;
  }
}

async function openReplay(index, pos, seat) {
  try {
    const view = await api("GET", `/api/records/${index}?pos=${pos}&seat=${seat}`);
    poller++;
    const playing = !!(replay && replay.index === index && replay.playing);
    if (replay) clearTimeout(replay.timer);  // a step by hand while playing: one timer only
    replay = { index, pos, positions: view.positions, seat, playing, timer: null };
    showReplay(view);
    if (playing) autoplayNext();
  } catch (e) {
    $(replay ? "r-note" : "records-error").textContent = e.message;
    stopAutoplay();
  }
}

function showReplay(view) {
  $("replay-bar").classList.remove("hidden");
  showTable(view);
  const s = $("r-slider");
  s.max = view.positions - 1;
  s.value = view.position;
  $("r-pos").textContent = `position ${view.position} of ${view.positions - 1}` +
    (view.position === view.positions - 1 ? " (the end)" : "");
  const seat = $("r-seat");
  if (seat.options.length !== view.players + 1) {
    seat.replaceChildren();
    const o = el("option", "", "every card open");
    o.value = "open";
    seat.append(o);
    for (let q = 0; q < view.players; q++) {
      const so = el("option", "", `${view.seats[q].label}, ${view.record.agents[q]}`);
      so.value = String(q);
      seat.append(so);
    }
  }
  seat.value = String(replay.seat);
  $("r-note").textContent = view.mismatch || "";
}

function step(to) {
  if (!replay) return;
  const pos = Math.max(0, Math.min(replay.positions - 1, to));
  openReplay(replay.index, pos, replay.seat);
}

// autoplay: the next position is asked for once the last one is shown, so a slow answer
// never queues up requests
function autoplayNext() {
  if (replay.pos >= replay.positions - 1) { stopAutoplay(); return; }
  const delay = 1000 * parseFloat($("r-speed").value);
  replay.timer = setTimeout(() => step(replay.pos + 1), delay);
}

function startAutoplay() {
  replay.playing = true;
  $("r-play").textContent = "❚❚ pause";
  autoplayNext();
}

function stopAutoplay() {
  if (replay) {
    clearTimeout(replay.timer);
    replay.playing = false;
    replay.timer = null;
  }
  $("r-play").textContent = "▶ play";
}

function stopReplay() {
  stopAutoplay();
  replay = null;
  $("replay-bar").classList.add("hidden");
}

function leaveTable() {
  // a live table left behind is closed: its bots stop and its place is free
  if (current && !current.record && !current.terminal && !current.error) {
    api("DELETE", `/api/tables/${current.id}`, undefined, { keepalive: true }).catch(() => {});
    current = null;
  }
}

function showTab(which) {
  leaveTable();
  $("tab-play").classList.toggle("active", which === "play");
  $("tab-records").classList.toggle("active", which === "records");
  poller++;
  stopReplay();
  $("table").classList.add("hidden");
  $("setup").classList.toggle("hidden", which !== "play");
  $("records").classList.toggle("hidden", which !== "records");
  if (which === "records") loadRecords();
}

// ----- wiring -----------------------------------------------------------------------------
$("game").addEventListener("change", renderForm);
$("use-recommended").addEventListener("click", useRecommended);
$("seat").addEventListener("change", markHumanSeat);
$("others-apply").addEventListener("click", () => {
  for (const inp of $("agents").querySelectorAll("input")) if (!inp.disabled) inp.value = $("others").value;
});
$("setup-form").addEventListener("submit", startTable);
$("tab-play").addEventListener("click", () => showTab("play"));
$("tab-records").addEventListener("click", () => showTab("records"));
$("prev-page").addEventListener("click", () => {
  recordsQuery.offset = Math.max(0, recordsQuery.offset - 50); loadRecords();
});
$("next-page").addEventListener("click", () => {
  if (recordsQuery.offset + 50 < (recordsQuery.total || 0)) { recordsQuery.offset += 50; loadRecords(); }
});
$("r-first").addEventListener("click", () => step(0));
$("r-back").addEventListener("click", () => step(replay.pos - 1));
$("r-fwd").addEventListener("click", () => step(replay.pos + 1));
$("r-last").addEventListener("click", () => step(replay.positions - 1));
$("r-slider").addEventListener("change", (e) => step(parseInt(e.target.value, 10)));
$("r-seat").addEventListener("change", (e) => openReplay(replay.index, replay.pos, e.target.value));
$("r-play").addEventListener("click", () => (replay.playing ? stopAutoplay() : startAutoplay()));
$("r-close").addEventListener("click", () => showTab("records"));
$("new-table").addEventListener("click", () => showTab("play"));
window.addEventListener("pagehide", leaveTable);
loadGames().catch((e) => { $("setup-error").textContent = e.message; });
