"""``skip-ai serve`` through HTTP: the page and its files, a whole game against bots through
the API, clear errors for bad requests, no file outside the page's own, a searching bot that
does not hold up other requests, why a bot moved, and recorded games replayed."""

from __future__ import annotations

import gc
import http.client
import json
import sys
import threading
import time
import weakref
from urllib.parse import urlencode

import pyarrow as pa
import pyarrow.parquet as pq
import pyspiel
import pytest
from test_serve_views import shown_cards

from agents.ismcts_kernel import M_NODES, VISITS
from skip_ai.kernel.state import hidden_from
from skip_ai.record_schema import SCHEMA
from skip_ai.records import read_records
from skip_ai.serve.server import make_server
from skip_ai.tournament import load_config, run_tournament


def _strict(name: str):
    raise ValueError(f"{name} is not JSON: a browser would refuse the response")


class Client:
    """JSON over HTTP to a server of this process."""

    def __init__(self, server):
        self.server = server
        self.host, self.port = server.server_address[:2]

    def raw(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(
                method,
                path,
                body=body,
                headers={"Content-Type": "application/json"} if body else {},
            )
            res = conn.getresponse()
            return res.status, res.read()
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, dict]:
        status, data = self.raw("GET", path)
        return status, json.loads(data, parse_constant=_strict)

    def post(self, path: str, body) -> tuple[int, dict]:
        status, data = self.raw("POST", path, json.dumps(body).encode())
        return status, json.loads(data)


def running(records=None):
    return make_server("127.0.0.1", 0, records).start()


@pytest.fixture(scope="module")
def client():
    server = running()
    yield Client(server)
    server.shutdown()
    server.server_close()


def open_table(client, game: str, seat, agents, **extra) -> dict:
    status, view = client.post(
        "/api/tables", {"game": game, "seat": seat, "agents": agents, "pace": 0, **extra}
    )
    assert status == 200, view
    return view


def wait_for(client, view: dict, done) -> dict:
    deadline = time.time() + 300  # generous: a first search compiles, cores are shared
    while not done(view):
        assert time.time() < deadline, view["turn"]
        assert not view["error"], view["error"]
        _, view = client.get(f"/api/tables/{view['id']}?after={view['version']}")
    return view


def test_the_page_and_its_files(client):
    status, page = client.raw("GET", "/")
    assert status == 200 and b"<title>skip_ai" in page
    for name in ("app.js", "style.css", "index.html"):
        assert client.raw("GET", f"/static/{name}")[0] == 200
    status, games = client.get("/api/games")
    names = [g["name"] for g in games["games"]]
    assert names[0] == "skip_pyatki" and "classic_rummy" in names and len(names) == 13
    assert games["records"] is None


def test_every_parameter_is_served_with_its_label_in_words(client):
    from skip_ai.spec import PARAM_LABELS

    _, games = client.get("/api/games")
    params = [p for g in games["games"] for p in g["params"]]
    assert params and all(p["label"] == PARAM_LABELS[p["name"]] for p in params)
    assert all(p["label"] != p["name"] for p in params)


@pytest.mark.parametrize(
    "path",
    [
        "/static/../server.py",
        "/static/..%2fserver.py",
        "/static/%2e%2e/%2e%2e/records.py",
        "/static/server.py",
        "/../../etc/passwd",
        "/static//etc/passwd",
        "/static/app.js/..",
        "/api/records/../../etc/passwd",
        "/static/..\\server.py",
    ],
)
def test_no_path_reads_a_file_outside_the_pages_own(client, path):
    status, body = client.raw("GET", path)
    assert status in (400, 404)
    assert b"import" not in body and b"root:" not in body


def test_a_person_plays_a_whole_game_against_random_bots(client):
    view = open_table(
        client,
        "skip_columns(players=4,deck=36)",
        1,
        ["random", "human", "random", "random"],
        seed=7,
    )
    moves = 0
    while True:
        view = wait_for(client, view, lambda v: v["terminal"] or v["moves"])
        if view["terminal"]:
            break
        assert view["turn"] == "your move" and view["seats"][1]["role"] == "you"
        assert view["seats"][0]["role"] == "partner"
        status, view = client.post(
            f"/api/tables/{view['id']}/move", {"action": view["moves"][-1]["a"]}
        )
        assert status == 200, view
        moves += 1
    forced = [e for e in view["log"] if e["forced"]]  # played for the person
    assert moves + len(forced) == 9 and all(e["seat"] == 1 for e in forced)
    assert "wins" in view["result"] and view["scores"]
    assert len(view["open"]) == 4  # every hand shown at the end


def test_a_persons_forced_moves_play_themselves_and_the_log_says_so(client):
    # Brook: a seat with no cards left can only pass
    game = "skip_brook(players=4,deck=36)"
    view = open_table(client, game, 0, ["human"] + ["random"] * 3, seed=2)
    table = client.server.app.tables.get(view["id"])
    asked = 0
    while True:
        view = wait_for(client, view, lambda v: v["terminal"] or v["moves"])
        if view["terminal"]:
            break
        assert len(view["moves"]) > 1  # a single legal move is never offered to click
        url = f"/api/tables/{view['id']}/move"
        status, view = client.post(url, {"action": view["moves"][0]["a"]})
        assert status == 200, view
        asked += 1
    forced = [e for e in view["log"] if e["forced"]]
    assert forced and all(e["seat"] == 0 and e["text"].endswith(" (forced)") for e in forced)
    assert {e["i"] for e in forced} <= table.forced and asked
    # the option off: the same game, every move of the person asked, the forced ones too
    view = open_table(client, game, 0, ["human"] + ["random"] * 3, seed=2, auto_forced=False)
    singles = 0
    while True:
        view = wait_for(client, view, lambda v: v["terminal"] or v["moves"])
        if view["terminal"]:
            break
        singles += len(view["moves"]) == 1
        url = f"/api/tables/{view['id']}/move"
        status, view = client.post(url, {"action": view["moves"][0]["a"]})
        assert status == 200, view
    assert singles == len(table.forced) and not any(e["forced"] for e in view["log"])


def test_each_game_has_a_default_opponent_the_server_offers(client):
    from skip_ai.serve.offer import Offer

    _, agents = client.get("/api/agents")
    _, games = client.get("/api/games")
    defaults = agents["defaults"]
    assert set(defaults) == {g["name"] for g in games["games"]}
    assert defaults["skip_brook"] == "ismcts(seconds=0.3)"
    assert defaults["skip_columns"] == "heuristic"  # the search measured no stronger there
    offer = Offer()
    for spec in defaults.values():
        assert offer.vet(spec, 1).spec == spec and spec in agents["presets"]


@pytest.mark.parametrize(
    "body, message",
    [
        ({"game": "skip_nothing", "seat": 0, "agents": []}, "unknown game"),
        ({"game": "skip_columns(players=3)", "seat": 0, "agents": []}, "players=3 is not allowed"),
        ({"game": "skip_columns(players=2)", "seat": 2, "agents": ["random"] * 2}, "seat must be"),
        ({"game": "skip_columns(players=2)", "seat": 0, "agents": ["random"]}, "one agent spec"),
        (
            {"game": "skip_columns(players=2)", "seat": 0, "agents": ["x", "alphago"]},
            "unknown agent 'alphago'",
        ),
        (
            {"game": "skip_columns(players=2)", "seat": 0, "agents": ["x", "human"]},
            "a person can only sit at your seat",
        ),
        (
            {"game": "skip_columns(players=2)", "seat": None, "agents": ["random"] * 2, "pace": -1},
            "pace",
        ),
        (
            {"game": "skip_columns(players=2)", "seat": 0, "agents": ["x", "y"], "auto_forced": 1},
            "auto_forced must be true or false",
        ),
    ],
)
def test_a_bad_table_request_is_one_clear_line(client, body, message):
    status, data = client.post("/api/tables", body)
    assert status == 400 and message in data["error"], data
    assert "\n" not in data["error"]


def test_bad_moves_and_unknown_tables(client):
    view = open_table(client, "skip_columns(players=2,deck=36)", 0, ["x", "random"])
    view = wait_for(client, view, lambda v: v["moves"])
    url = f"/api/tables/{view['id']}/move"
    legal = {m["a"] for m in view["moves"]}
    illegal = next(a for a in range(54) if a not in legal)
    for body, message in [
        ({"action": illegal}, "not one of your legal moves"),
        ({"action": "7s"}, "an integer"),
        ({}, "an integer"),
    ]:
        status, data = client.post(url, body)
        assert status == 400 and message in data["error"]
    status, data = client.raw("POST", url, b"{not json")
    assert status == 400 and b"not JSON" in data
    assert client.get("/api/tables/abcdef123456")[0] == 404
    assert client.get(f"/api/tables/{view['id']}?after=soon")[0] == 400
    watch = open_table(client, "skip_columns(players=2,deck=36)", None, ["random", "random"])
    status, data = client.post(f"/api/tables/{watch['id']}/move", {"action": 0})
    assert status == 400 and "bots play alone" in data["error"]
    assert client.get("/api/records")[0] == 400  # no --records


class WatchedSearch:
    """A bot's search kernel that notes each run's root visits before and after it, so that
    a reading of the root's visits taken elsewhere tells whether the compiled search was
    running then: only strictly between the two."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.current = None  # (tree, meta) of the run in progress, or of the last one
        self.runs = []  # (tree, visits before, visits after)

    def run(self, root, rng, iterations, tree, stats, meta, settings):
        before = int(tree[0, VISITS]) if meta[M_NODES] else 0
        self.current = (tree, meta)
        done = self.kernel.run(root, rng, iterations, tree, stats, meta, settings)
        self.runs.append((tree, before, int(tree[0, VISITS])))
        return done

    def reading(self):
        if self.current is None or not self.current[1][M_NODES]:
            return None  # no run yet, or its tree is not made yet
        tree = self.current[0]
        return tree, int(tree[0, VISITS])

    def ran_during(self, readings) -> bool:
        return any(
            tree is run_tree and before < visits < after
            for tree, visits in readings
            for run_tree, before, after in self.runs
        )


def test_a_view_is_served_while_a_bot_searches(client):
    # Each view notes the root visits of every bot's search: a count strictly between a
    # run's first and last is only seen if the search let the server's thread run (it
    # releases the GIL). No clock: a search holding the GIL could never be seen mid-run.
    view = open_table(
        client, "skip_chains(players=4)", 0, ["x"] + ["ismcts(iterations=4000)"] * 3, seed=2
    )
    table = client.server.app.tables.get(view["id"])
    watched = []
    for bot in table.bots[1:]:
        bot.kernel = WatchedSearch(bot.kernel)
        watched.append(bot.kernel)
    readings = []
    serve_view = table.view

    def view_noting_the_searches(after=None):
        readings.extend(filter(None, (w.reading() for w in watched)))
        return serve_view(after)

    table.view = view_noting_the_searches
    while not any(w.ran_during(readings) for w in watched):
        status, view = client.get(f"/api/tables/{view['id']}")
        assert status == 200 and not view["error"], view
        if view["terminal"]:
            break
        if view["moves"]:
            client.post(f"/api/tables/{view['id']}/move", {"action": view["moves"][0]["a"]})
    assert sum(len(w.runs) for w in watched) > 0
    assert any(w.ran_during(readings) for w in watched), (
        f"none of {len(readings)} views was served while a bot's search ran"
    )


NUMBERS = ("iterations", "seconds", "moves", "forced", "visits", "share", "value")
"""What a search says of the bot's hand: none of it while a person plays against it."""


def test_why_a_bot_moved(client):
    # a person's table: while the game is on, only the chosen move as the person saw it, and
    # no number (the bot's other moves, their count, visits and values follow from its hand)
    view = open_table(
        client, "skip_columns(players=2,deck=36)", 0, ["x", "ismcts(iterations=60)"], seed=3
    )
    view = wait_for(client, view, lambda v: v["moves"])
    _, view = client.post(f"/api/tables/{view['id']}/move", {"action": view["moves"][0]["a"]})
    view = wait_for(client, view, lambda v: v["search"] is not None)
    search = view["search"]
    assert search["seat"] == 1 and not search["full"] and len(search["rows"]) == 1
    row = search["rows"][0]
    assert row["chosen"] and not set(NUMBERS) & (set(search) | set(row)), search
    entry = next(e for e in view["log"] if e["i"] == search["i"])
    assert entry["why"] and entry["text"] == row["label"]
    status, again = client.get(f"/api/tables/{view['id']}/why/{search['i']}")
    assert status == 200 and again["rows"] == search["rows"]
    assert client.get(f"/api/tables/{view['id']}/why/0")[0] == 400
    # the game over, everything: the search's size and every root move
    while not view["terminal"]:
        view = wait_for(client, view, lambda v: v["terminal"] or v["moves"])
        if view["moves"]:
            url = f"/api/tables/{view['id']}/move"
            _, view = client.post(url, {"action": view["moves"][0]["a"]})
    status, after = client.get(f"/api/tables/{view['id']}/why/{search['i']}")
    assert status == 200 and after["full"] and after["iterations"] == 60
    assert len(after["rows"]) == after["moves"] and sum(r["chosen"] for r in after["rows"]) == 1
    # watching bots, every card is open: every root move
    watch = open_table(
        client, "skip_columns(players=2,deck=36)", None, ["ismcts(iterations=60)", "random"], seed=3
    )
    watch = wait_for(client, watch, lambda v: v["search"] is not None)
    assert watch["search"]["full"]
    watch = wait_for(client, watch, lambda v: v["terminal"])
    searches = [
        client.get(f"/api/tables/{watch['id']}/why/{e['i']}")[1] for e in watch["log"] if e["why"]
    ]
    assert searches and all(s["full"] and len(s["rows"]) == s["moves"] for s in searches)
    chosen = next(s for s in searches if s["moves"] > 1)
    assert abs(sum(r["share"] for r in chosen["rows"]) - 1) < 1e-9
    assert all(s["forced"] == (s["moves"] == 1) for s in searches)


@pytest.mark.parametrize(
    "game",
    ["skip_chains(players=4,deck=36)", "classic_sixty_six_4p(mode=deal,nines=true,contracts=true)"],
)
def test_a_persons_table_never_sends_a_hidden_card(client, game):
    view = open_table(client, game, 2, ["random", "random", "x", "random"], seed=1)
    table = client.server.app.tables.get(view["id"])
    while True:
        view = wait_for(client, view, lambda v: v["terminal"] or v["moves"])
        # the state the view was made from: the table's history up to the view's move
        state = table.game.new_initial_state()
        for a in table.state.history()[: view["move_number"]]:
            state.apply_action(a)
        s = state.kernel_state()
        if not view["terminal"]:  # at the end every hand is shown
            assert not [c for c in shown_cards(view) if hidden_from(s, c, 2)]
            assert view["search"] is None or not view["search"]["full"]
        if view["terminal"]:
            break
        status, view = client.post(
            f"/api/tables/{view['id']}/move", {"action": view["moves"][0]["a"]}
        )
        assert status == 200, view


def test_what_a_table_keeps_is_bounded_however_many_tables_are_opened(monkeypatch):
    # Tables opened one after another, bots searching to the end: a finished table keeps
    # no bot, at most SEARCHES_KEPT searches, each a summary of its root moves only (arrays of
    # their own, not slices of the tree's); the server keeps at most max_tables tables, and a
    # table it closed is freed.
    from skip_ai.serve import tables as tables_module

    monkeypatch.setattr(tables_module, "SEARCHES_KEPT", 6)
    tables = tables_module.Tables(max_tables=3)
    alive = []
    for seed in range(8):
        table = tables.open(
            {
                "game": "skip_columns(players=2,deck=36)",
                "seat": None,
                "pace": 0,
                "agents": ["ismcts(iterations=300)"] * 2,
                "seed": seed,
            }
        )
        table.thread.join(timeout=300)
        assert table.state.is_terminal() and not table.error
        kept = table.retained()
        assert kept["bots"] == 0 and kept["searches"] == 6, kept
        history = len(table.state.history())
        assert min(table.searches) >= history - 2 * 6  # the last ones (two seats)
        for move in table.searches.values():
            for array in (move.stats.actions, move.stats.visits, move.stats.values):
                assert array.base is None and len(array) == len(move.stats.actions)
        assert kept["search_bytes"] <= 6 * 24 * 54  # 6 searches, at most 54 root moves
        alive.append(weakref.ref(table))
        del table
        assert len(tables) <= 3
    gc.collect()
    assert sum(ref() is not None for ref in alive) <= 3
    tables.close_all()


# ----- recorded games --------------------------------------------------------------------


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """A tiny tournament's folder, plus a shard written before the actions column."""
    tmp = tmp_path_factory.mktemp("batch")
    config = tmp / "t.toml"
    config.write_text(
        f'name = "t"\nseed = 1\ndeals = 2\nout = "{tmp / "out"}"\n'
        '[[games]]\ngame = "skip_columns(players=4,deck=36)"\n'
        '[[games]]\ngame = "skip_pyatki(players=2,deck=36)"\n'
        '[[agents]]\nname = "rnd"\nspec = "random"\n'
        '[[agents]]\nname = "heur"\nspec = "heuristic"\n'
    )
    run_tournament(load_config(config), workers=1)
    out = tmp / "out"
    old = read_records(out / "records").head(3).drop(columns="actions")
    old["match_id"] = old.match_id + "-old"
    schema = pa.schema([f for f in SCHEMA if f.name != "actions"])
    pq.write_table(
        pa.Table.from_pandas(old, schema=schema, preserve_index=False),
        out / "records" / "old-shard.parquet",
    )
    return out


@pytest.fixture(scope="module")
def replays(batch):
    server = running(batch)
    yield Client(server)
    server.shutdown()
    server.server_close()


def test_the_records_are_listed_and_filtered(replays, batch):
    df = read_records(batch / "records")
    assert len(df) == 4 + 4 + 3  # 2 deals × 2 seatings of each game, and the old shard
    _, games = replays.get("/api/games")
    facets = games["records"]
    assert facets["total"] == 11 and facets["replayable"] == 8
    assert facets["agents"] == ["heur", "rnd"]
    _, page = replays.get("/api/records")
    assert page["total"] == 11 and len(page["rows"]) == 11
    old = [r for r in page["rows"] if r["match_id"].endswith("-old")]
    assert len(old) == 3 and not any(r["replayable"] for r in old)
    for game in facets["games"]:
        _, page = replays.get("/api/records?" + urlencode({"game": game}))
        assert page["total"] == (df.game == game).sum()
        assert {r["game"] for r in page["rows"]} == {game}
    _, wins = replays.get("/api/records?result=A%20wins")
    _, losses = replays.get("/api/records?result=B%20wins")
    _, draws = replays.get("/api/records?result=draw")
    assert wins["total"] + losses["total"] + draws["total"] == 11
    assert all(r["result"] == "A wins" for r in wins["rows"])
    _, rnd = replays.get("/api/records?agent=rnd")
    assert rnd["total"] == 11
    status, data = replays.get("/api/records?result=maybe")
    assert status == 400 and "result must be one of" in data["error"]


def test_a_record_replays_move_by_move_from_any_seat(replays, batch):
    df = read_records(batch / "records")
    _, page = replays.get("/api/records?agent=heur")
    row = next(r for r in page["rows"] if r["replayable"] and "columns" in r["game"])
    index = row["index"]
    status, first = replays.get(f"/api/records/{index}?pos=0&seat=open")
    assert status == 200, first
    n = first["positions"]
    assert n == row["moves"] + 1 and first["move_number"] == 36  # the deal, then the moves
    assert len(shown_cards(first)) == 36  # every card open
    game = pyspiel.load_game(row["game"])
    actions = df[df.match_id == row["match_id"]].actions.iloc[0].tolist()
    for pos in (0, 5, n - 1):
        _, view = replays.get(f"/api/records/{index}?pos={pos}&seat=3")
        state = game.new_initial_state()
        for a in actions[: view["move_number"]]:
            state.apply_action(a)
        s = state.kernel_state()
        assert not [c for c in shown_cards(view) if hidden_from(s, c, 3)]
        assert view["position"] == pos and view["viewer"] == 3
    _, last = replays.get(f"/api/records/{index}?pos={n - 1}&seat=open")
    assert last["terminal"] and last["result"] and not last["mismatch"]
    for query, message in [
        (f"pos={n}", "position must be in"),
        ("seat=9", "seat must be"),
        ("seat=me", "seat must be"),
        ("pos=-1", "pos must be"),
    ]:
        status, data = replays.get(f"/api/records/{index}?{query}")
        assert status == 400 and message in data["error"], query
    assert replays.get("/api/records/999")[0] == 404


HOSTILE = [
    "/api/records?game=../../../etc/passwd&agent=/etc/passwd",
    "/api/records?folder=/etc&out=/etc&path=/etc/passwd&records=..",
    "/api/records/0?seat=../../etc&pos=0",
    "/api/records/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/api/records/../replays.py",
    "/api/records/0/../../../server.py",
    "/api/games?records=/etc",
    "/static/%2e%2e%2freplays.py",
    "/static/..%5cserver.py",
]
"""Requests naming files, as a page (or anyone who can reach the port) could send them."""


def test_the_page_reads_no_file_but_its_own(replays):
    # the records were read when the server started; answering the page, a server thread
    # opens only the page's own files, whatever a request names (a Python audit hook sees
    # every open)
    from skip_ai.serve.server import FILES, STATIC

    index = next(r["index"] for r in replays.get("/api/records")[1]["rows"] if r["replayable"])
    legit = ["/", "/static/app.js", "/api/games", "/api/records", f"/api/records/{index}"]
    for path in legit + HOSTILE:  # first: whatever a first request imports
        replays.raw("GET", path)
    opened = []
    noting = True

    def note(event: str, args: tuple) -> None:
        # the server's threads: its event loop's, and the pool its endpoints' work runs in
        thread = threading.current_thread().name
        if noting and event == "open" and thread in ("skip-ai-serve", "AnyIO worker thread"):
            opened.append(str(args[0]))

    sys.addaudithook(note)  # a hook cannot be removed: it stops noting after this test
    try:
        answers = [replays.raw("GET", path) for path in legit + HOSTILE]
    finally:
        noting = False
    own = {str(STATIC / name) for name in FILES}
    assert opened and set(opened) <= own, set(opened) - own
    for path, (status, body) in zip(HOSTILE, answers[len(legit) :]):
        assert status in (200, 400, 404) and b"root:" not in body and b"import" not in body, path
    total = replays.get("/api/records")[1]["total"]
    assert replays.get("/api/records?folder=/etc")[1]["total"] == total


def test_a_record_without_its_history_says_so(replays):
    _, page = replays.get("/api/records")
    old = next(r for r in page["rows"] if not r["replayable"])
    status, data = replays.get(f"/api/records/{old['index']}")
    assert status == 400 and "without its action history" in data["error"]


def test_serve_refuses_a_missing_records_folder(tmp_path, capsys):
    from skip_ai.cli import main

    assert main(["serve", "--records", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err
    (tmp_path / "records").mkdir()
    assert main(["serve", "--records", str(tmp_path), "--port", "0"]) == 2
    assert "no records in" in capsys.readouterr().err
