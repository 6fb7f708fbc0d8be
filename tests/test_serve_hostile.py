"""``skip-ai serve`` against hostile requests: a live server on loopback (an ephemeral port),
bounded clients, and nothing a request does makes it read what it should not, run forever,
or report something false.

- a spec naming a file is refused in one line that says nothing of the file, which is never
  opened; a search's budget is capped per move;
- a request for another host name (DNS rebinding), from another site (``Origin``,
  ``Sec-Fetch-Site``), or with a body not sent as JSON is refused before any endpoint runs;
- a bad ``Content-Length`` (negative, garbage, oversize), a head or body that never ends,
  malformed query parameters: a 4xx in one line of JSON, within the server's time limits,
  with no thread held meanwhile;
- 200 concurrent requests are all answered;
- a table's search stops when its table is closed; a game in play is never closed to make
  room (a full server says 503; a closed table's id says why, 410);
- a busy port is one line; a record the page cannot show is set aside and named;
- a person never sees a number a bot's search derived from its hidden hand.

Every loop here is bounded in count and time, and every client has a timeout.
"""

from __future__ import annotations

import http.client
import json
import math
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pyspiel
import pytest

from skip_ai.record_schema import SCHEMA
from skip_ai.records import read_records
from skip_ai.serve.guards import Limits
from skip_ai.serve.server import make_server
from skip_ai.tournament import load_config, run_tournament

GAME = "skip_columns(players=2,deck=36)"
LIMITS = Limits(body_seconds=2.0, head_seconds=2.0)
"""Short time limits, so that waiting them out is quick."""
SLACK = 4.0
"""Seconds past a time limit that an answer may take on a loaded machine."""
NUMBERS = ("iterations", "seconds", "moves", "forced", "visits", "share", "value")
"""What a search says of the bot's hand."""


# ----- clients ---------------------------------------------------------------------------------
class Client:
    """JSON over HTTP to a server on loopback, every call with a timeout."""

    def __init__(self, server, timeout: float = 30.0):
        self.server = server
        self.host, self.port = server.server_address[:2]
        self.timeout = timeout

    def raw(self, method: str, path: str, body: bytes | None = None, headers=None):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            sent = {"Content-Type": "application/json"} if body is not None else {}
            sent.update(headers or {})
            conn.request(method, path, body=body, headers=sent)
            res = conn.getresponse()
            return res.status, res.read()
        finally:
            conn.close()

    def get(self, path: str, headers=None) -> tuple[int, dict]:
        status, data = self.raw("GET", path, headers=headers)
        return status, json.loads(data)

    def post(self, path: str, body, headers=None) -> tuple[int, dict]:
        status, data = self.raw("POST", path, json.dumps(body).encode(), headers)
        return status, json.loads(data)

    def send(self, data: bytes, timeout: float, then: bytes = b"") -> tuple[bytes, float]:
        """``data`` on a socket of its own (``then`` after 0.3 s), and all the server says
        until it closes the connection or ``timeout``; and the seconds that took."""
        start = time.monotonic()
        with socket.create_connection((self.host, self.port), timeout=timeout) as sock:
            sock.sendall(data)
            if then:
                time.sleep(0.3)
                sock.sendall(then)
            return _read_all(sock, start + timeout), time.monotonic() - start


def _read_all(sock: socket.socket, deadline: float) -> bytes:
    out = b""
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            break
        if not chunk:
            break
        out += chunk
    return out


def _answer(raw: bytes) -> tuple[int, dict]:
    """The status and JSON body of a raw HTTP answer."""
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 "), raw[:200]
    return int(head.split()[1]), json.loads(body)


def one_line(data: dict) -> str:
    assert set(data) == {"error"} and "\n" not in data["error"], data
    return data["error"]


# ----- the servers -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    """A tiny tournament's records (two games of random bots), and a shard with a copy of
    one whose scores hold a NaN."""
    tmp = tmp_path_factory.mktemp("hostile")
    config = tmp / "t.toml"
    config.write_text(
        f'name = "t"\nseed = 1\ndeals = 1\nout = "{tmp / "out"}"\n'
        f'[[games]]\ngame = "{GAME}"\n'
        '[[agents]]\nname = "rnd"\nspec = "random"\n'
        '[[agents]]\nname = "rnd2"\nspec = "random"\n'
    )
    run_tournament(load_config(config), workers=1)
    folder = tmp / "out" / "records"
    bad = read_records(folder).head(1)
    bad["match_id"] = "nan-scores"
    bad["scores"] = [np.array([math.nan, 1.0])]
    pq.write_table(
        pa.Table.from_pandas(bad, schema=SCHEMA, preserve_index=False), folder / "bad.parquet"
    )
    return folder


@pytest.fixture(scope="module")
def server(records):
    srv = make_server("127.0.0.1", 0, records, limits=LIMITS).start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def client(server) -> Client:
    return Client(server)


@pytest.fixture(scope="module")
def table_id(client) -> str:
    """A live table of this server: the person at seat 0, to move."""
    status, view = client.post(
        "/api/tables", {"game": GAME, "seat": 0, "agents": ["x", "random"], "pace": 0}
    )
    assert status == 200, view
    return view["id"]


def open_table(client, seat, agents, game=GAME, **extra) -> tuple[int, dict]:
    return client.post(
        "/api/tables", {"game": game, "seat": seat, "agents": agents, "pace": 0, **extra}
    )


# ----- 1. no request names a file --------------------------------------------------------------
OPENED: list[str] = []
WATCHED: set[str] = set()


def _note_opens(event: str, args: tuple) -> None:
    if event == "open" and WATCHED and str(args[0]) in WATCHED:
        OPENED.append(str(args[0]))


sys.addaudithook(_note_opens)  # a hook cannot be removed: it notes only the files WATCHED


def test_a_spec_naming_a_file_is_refused_without_a_word_of_the_file(client, tmp_path):
    secret = tmp_path / "weights.json"
    secret.write_text(json.dumps({"game": "secret_game_name", "names": [], "weights": []}))
    missing = tmp_path / "nothing.json"
    shipped = Path(__file__).resolve().parents[1] / "skip_ai" / "models" / "skip_columns.npz"
    specs = {
        "heuristic(weights={})": [secret, missing, "/etc/passwd", "../../../../etc/passwd"],
        "learned(model={})": ["/proc/self/environ", shipped, missing, "../../../etc/hostname"],
        "ismcts(iterations=10,tuned={})": [secret, missing, "/etc/passwd"],
        "ismcts(iterations=10,model={})": [shipped, "/etc/passwd"],
        "ismcts(iterations=10,weights={})": [secret, missing],
    }
    WATCHED.update(str(p) for paths in specs.values() for p in paths)
    try:
        for spec, paths in specs.items():
            answers = set()
            for path in paths:
                status, data = open_table(client, 0, ["x", spec.format(path)])
                assert status == 400, (spec, path, data)
                error = one_line(data)
                for word in ("passwd", "environ", "hostname", "secret", "nothing", "tmp", "/"):
                    assert word not in error, (spec, path, error)
                answers.add(error)
            # whether the file exists, what it holds: the same answer
            assert len(answers) == 1, answers
    finally:
        WATCHED.clear()
    assert not OPENED, OPENED


def test_the_bots_are_chosen_from_what_the_server_offers(client):
    status, offer = client.get("/api/agents")
    assert status == 200
    kinds = {k["name"]: k for k in offer["kinds"]}
    assert kinds["ismcts"]["caps"] == {"iterations": 100_000, "seconds": 10.0}
    assert "skip_columns" in offer["files"]["models"] and offer["learned"]["skip_columns"]
    assert "100,000" in offer["caps"] and "10 seconds" in offer["caps"]
    for spec in ("learned(model=skip_columns)", "ismcts(iterations=100000)", "heuristic"):
        # the shipped model plays its game's default variant
        status, view = open_table(client, None, [spec] + ["random"] * 3, game="skip_columns")
        assert status == 200, (spec, view)
        client.raw("DELETE", f"/api/tables/{view['id']}")
    for spec, word in [
        ("ismcts(iterations=2000000000)", "cap"),
        ("ismcts(iterations=1e9)", "cap"),
        ("ismcts(seconds=100000)", "cap"),
        ("ismcts(seconds=nan)", "cap"),
        ("openspiel_ismcts(iterations=1000000)", "cap"),
        ("openspiel_ismcts(seconds=1,rollouts=100000)", "cap"),
        ("random(path=/etc/passwd)", "takes no option"),
        ("alphago", "unknown agent"),
        ("x" * 5000, "at most 200 characters"),
    ]:
        status, data = open_table(client, 0, ["x", spec])
        assert status == 400 and word in one_line(data), (spec, data)


def test_files_given_on_the_command_line_are_offered_by_name(tmp_path):
    from agents.heuristics import heuristic_weights
    from agents.weights import save_weights
    from skip_ai.serve.offer import Offer

    columns, pyatki = pyspiel.load_game(GAME), pyspiel.load_game("skip_pyatki(players=2)")
    save_weights(tmp_path / "cols.json", columns, heuristic_weights(columns, None))
    save_weights(tmp_path / "pyatki.json", pyatki, heuristic_weights(pyatki, None))
    offer = Offer(weights={"cols": str(tmp_path / "cols.json"), "p": str(tmp_path / "pyatki.json")})
    srv = make_server("127.0.0.1", 0, offer=offer).start()
    try:
        c = Client(srv)
        assert c.get("/api/agents")[1]["files"]["weights"] == ["cols", "p"]
        status, view = open_table(c, 0, ["x", "heuristic(weights=cols)"])
        assert status == 200 and view["seats"][1]["agent"] == "heuristic(weights=cols)"
        status, data = open_table(c, 0, ["x", "heuristic(weights=p)"])  # for another game
        error = one_line(data)
        assert status == 400 and "p: these weights were tuned for skip_pyatki" in error, error
        assert str(tmp_path) not in error and "/" not in error
    finally:
        srv.shutdown()
        srv.server_close()


# ----- 2. only this server's page may ask ------------------------------------------------------
@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "evil.example"},
        {"Host": "evil.example:{port}"},
        {"Host": "127.0.0.1.evil.example:{port}"},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:1"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
    ids=lambda h: "-".join(f"{k}={v}" for k, v in h.items()),
)
def test_a_request_from_another_site_or_name_is_refused(client, server, headers):
    headers = {k: v.format(port=client.port) for k, v in headers.items()}
    status, data = client.get("/api/games", headers=headers)
    assert status == 403 and one_line(data), data
    before = len(server.app.tables)
    status, data = client.post(
        "/api/tables",
        {"game": GAME, "seat": None, "agents": ["random", "random"], "pace": 0},
        headers=headers,
    )
    assert status == 403 and one_line(data), data
    assert len(server.app.tables) == before  # no table was opened


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "localhost:{port}", "Origin": "http://localhost:{port}"},
        {"Host": "127.0.0.1:{port}", "Origin": "http://127.0.0.1:{port}"},
        {"Host": "127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"},
        {"Host": "LOCALHOST.:{port}", "Sec-Fetch-Site": "none"},
    ],
)
def test_the_pages_own_requests_are_answered(client, headers):
    headers = {k: v.format(port=client.port) for k, v in headers.items()}
    assert client.get("/api/games", headers=headers)[0] == 200


def test_another_name_is_answered_only_when_allowed():
    srv = make_server("127.0.0.1", 0, allow_hosts=["table.example"]).start()
    try:
        c = Client(srv)
        assert c.get("/api/agents", headers={"Host": "table.example:80"})[0] == 200
        assert c.get("/api/agents", headers={"Host": "other.example"})[0] == 403
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_a_body_not_sent_as_json_is_refused(client, server, table_id, kind):
    body = json.dumps({"game": GAME, "seat": None, "agents": ["random", "random"]}).encode()
    headers = {"Content-Type": kind} if kind else {}
    before = len(server.app.tables)
    conn = http.client.HTTPConnection(client.host, client.port, timeout=30)
    try:  # http.client sends no Content-Type unless told
        conn.request("POST", "/api/tables", body=body, headers=headers)
        res = conn.getresponse()
        status, data = res.status, json.loads(res.read())
    finally:
        conn.close()
    assert status == 415 and "application/json" in one_line(data)
    assert len(server.app.tables) == before
    status, data = client.raw(
        "POST", f"/api/tables/{table_id}/move", b'{"action": 0}', {"Content-Type": kind or ""}
    )
    assert status == 415


# ----- 3. malformed requests: one line, in time ------------------------------------------------
def _post_head(client, length: str, path: str = "/api/tables") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{client.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


@pytest.mark.parametrize(
    "length, status",
    [("-1", 400), ("abc", 400), ("1 2", 400), ("99999999999", 413), (str(1 << 20), 413)],
)
def test_a_bad_content_length_is_a_4xx_at_once(client, length, status):
    raw, seconds = client.send(_post_head(client, length), timeout=LIMITS.body_seconds + SLACK)
    assert raw, f"no answer to Content-Length {length} in {seconds:.1f} s"
    got, data = _answer(raw)
    assert got == status and one_line(data), data
    assert seconds < LIMITS.body_seconds, seconds  # at once, not at a time limit


def test_a_body_too_large_or_malformed_is_a_4xx(client):
    status, data = client.raw("POST", "/api/tables", b"[" * 30_000 + b"]" * 30_000)
    assert status == 400 and one_line(json.loads(data))
    status, data = client.raw("POST", "/api/tables", b'{"game": NaN}')
    assert status == 400 and "not JSON" in one_line(json.loads(data))
    raw, _ = client.send(b"GARBAGE\r\n\r\n", timeout=SLACK)
    status, data = _answer(raw)
    assert status == 400 and one_line(data)
    head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {'a' * 20000}\r\n\r\n".encode()
    raw, _ = client.send(head, timeout=SLACK)
    status, data = _answer(raw)
    assert status in (400, 431) and one_line(data)


def test_a_body_that_never_ends_times_out(client):
    raw, seconds = client.send(
        _post_head(client, "100"), then=b'{"game": ', timeout=LIMITS.body_seconds + SLACK
    )
    assert raw, f"no answer in {seconds:.1f} s"
    status, data = _answer(raw)
    assert status == 408 and "did not arrive" in one_line(data)
    assert LIMITS.body_seconds <= seconds < LIMITS.body_seconds + SLACK


def test_a_head_that_never_ends_times_out(client):
    partial = f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{client.port}\r\n".encode()
    raw, seconds = client.send(partial, timeout=LIMITS.head_seconds + SLACK)
    status, data = _answer(raw)
    assert status == 408 and one_line(data)
    assert seconds < LIMITS.head_seconds + SLACK
    # a connection that says nothing is closed
    raw, seconds = client.send(b"", timeout=LIMITS.head_seconds + SLACK)
    assert raw == b"" and seconds < LIMITS.head_seconds + SLACK


def test_slow_clients_hold_no_thread_and_no_one_else_waits(client):
    threads = threading.active_count()
    socks = []
    try:
        for _ in range(100):
            sock = socket.create_connection((client.host, client.port), timeout=10)
            sock.sendall(_post_head(client, "100") + b'{"game": ')
            socks.append(sock)
        time.sleep(0.5)
        assert threading.active_count() - threads < 10  # no thread per connection
        start = time.monotonic()
        assert client.get("/api/games")[0] == 200  # answered meanwhile, at once
        assert time.monotonic() - start < LIMITS.body_seconds
        deadline = time.monotonic() + LIMITS.body_seconds + SLACK
        answers = [_answer(_read_all(sock, deadline))[0] for sock in socks]
        assert answers == [408] * len(socks)
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/{table}?after=--5",
        "/api/tables/{table}?after=%C2%B2",
        "/api/tables/{table}?after=" + "9" * 4300,
        "/api/tables/{table}?after=1e3",
        "/api/tables/" + "a" * 4300,
        "/api/tables/{table}/why/" + "9" * 4300,
        "/api/tables/{table}/why/%C2%B2",
        "/api/tables/{table}/why/-1",
        "/api/records/" + "9" * 4300,
        "/api/records/%C2%B2",
        "/api/records/0?pos=%C2%B2",
        "/api/records/0?pos=--5",
        "/api/records/0?pos=" + "9" * 4300,
        "/api/records/0?seat=%C2%B2",
        "/api/records/0?seat=" + "9" * 4300,
        "/api/records?offset=%C2%B2",
        "/api/records?offset=-5",
        "/api/records?offset=" + "9" * 4300,
        "/api/records?result=%FF%FE",
        "/api/records?offset=1&offset=%C2%B2",
        "/api/records?result=%00",
    ],
    ids=lambda p: p[:40],
)
def test_a_malformed_query_is_a_4xx_not_a_crash(client, table_id, path):
    status, data = client.get(path.format(table=table_id))
    assert status in (400, 404) and one_line(data), (status, data)


def test_200_concurrent_requests_are_all_served(client, table_id):
    # 200 clients ask at the same moment, each with a 10 s timeout (a listen backlog of 5
    # answered some 90 of them: the rest timed out)
    paths = ["/api/games", "/api/agents", "/", f"/api/tables/{table_id}", "/api/records"]
    start = threading.Barrier(200, timeout=60)

    def ask(k: int) -> int | str:
        conn = http.client.HTTPConnection(client.host, client.port, timeout=10)
        try:
            start.wait()
            conn.request("GET", paths[k % len(paths)])
            res = conn.getresponse()
            res.read()
            return res.status
        except OSError as e:
            return type(e).__name__
        finally:
            conn.close()

    with ThreadPoolExecutor(200) as pool:
        statuses = list(pool.map(ask, range(200)))
    assert statuses == [200] * 200, {s: statuses.count(s) for s in set(statuses)}


# ----- 4. a table's bots stop with it; a game in play is kept ----------------------------------
def test_a_tables_search_stops_when_the_table_is_closed(client, server):
    status, view = open_table(client, None, ["ismcts(seconds=10)", "ismcts(seconds=10)"])
    assert status == 200, view
    table = server.app.tables.get(view["id"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and table.state.is_chance_node():
        time.sleep(0.05)  # the deal
    time.sleep(1.0)  # the first bot is searching: for 10 s
    assert table.thread.is_alive() and not table.searches
    start = time.monotonic()
    status, _ = client.raw("DELETE", f"/api/tables/{view['id']}")
    assert status == 200
    table.thread.join(timeout=8)
    assert not table.thread.is_alive() and time.monotonic() - start < 3
    assert not table.searches  # the search stopped: it never made its move
    status, data = client.get(f"/api/tables/{view['id']}")
    assert status == 410 and "closed" in one_line(data)


def test_a_game_in_play_is_never_closed_to_make_room():
    srv = make_server("127.0.0.1", 0, max_tables=3).start()
    try:
        c = Client(srv)
        status, mine = open_table(c, 0, ["x", "random"])
        assert status == 200
        gone = []
        for _ in range(8):  # bots alone, done at once: each makes room for the next
            status, view = open_table(c, None, ["random", "random"])
            assert status == 200, view
            srv.app.tables.get(view["id"]).thread.join(timeout=30)
            gone.append(view["id"])
        status, view = c.get(f"/api/tables/{mine['id']}")
        assert status == 200 and not view["terminal"]
        status, data = c.get(f"/api/tables/{gone[0]}")
        assert status == 410 and "its game was over" in one_line(data)
        # every slot a game in play: a new table is refused, and no game is lost
        live = [open_table(c, 0, ["x", "random"])[1]["id"] for _ in range(2)]
        status, data = open_table(c, 0, ["x", "random"])
        assert status == 503 and "every one of the 3 tables" in one_line(data)
        for table in [mine["id"], *live]:
            assert c.get(f"/api/tables/{table}")[0] == 200
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_table_nobody_looks_at_makes_room_and_says_so():
    srv = make_server("127.0.0.1", 0, max_tables=1, idle=1.0).start()
    try:
        c = Client(srv)
        status, old = open_table(c, 0, ["x", "random"])
        assert status == 200
        time.sleep(1.5)
        status, new = open_table(c, 0, ["x", "random"])
        assert status == 200, new
        status, data = c.get(f"/api/tables/{old['id']}")
        assert status == 410 and "idle" in one_line(data)
    finally:
        srv.shutdown()
        srv.server_close()


# ----- 5. a busy port, a bad record ------------------------------------------------------------
def test_a_busy_port_is_one_line(capsys):
    from skip_ai.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err == f"skip-ai: error: port {port} is in use: choose another --port\n"


def test_a_record_with_a_nan_is_set_aside_and_named(client, records):
    status, page = client.get("/api/records")
    assert status == 200 and page["total"] == 2
    assert "nan-scores" not in {r["match_id"] for r in page["rows"]}
    _, games = client.get("/api/games")
    facets = games["records"]
    assert facets["skipped_total"] == 1
    (skipped,) = facets["skipped"]
    assert skipped["match_id"] == "nan-scores" and "scores" in skipped["why"], skipped
    for row in page["rows"]:
        status, view = client.get(f"/api/records/{row['index']}?pos=3")
        assert status == 200 and view["record"]["match_id"] == row["match_id"]


# ----- 6. a person sees nothing a bot computed from its hand -----------------------------------
def test_a_seated_person_sees_no_number_of_a_bots_search():
    srv = make_server("127.0.0.1", 0).start()
    try:
        c = Client(srv)
        status, view = open_table(c, 0, ["x", "ismcts(iterations=30)"], seed=5)
        assert status == 200
        seen, asked = [], set()
        deadline = time.monotonic() + 300
        while not view["terminal"]:
            assert time.monotonic() < deadline and not view["error"], view["turn"]
            if view["moves"]:
                status, view = c.post(
                    f"/api/tables/{view['id']}/move", {"action": view["moves"][0]["a"]}
                )
            else:
                status, view = c.get(f"/api/tables/{view['id']}?after={view['version']}")
            assert status == 200, view
            if view["search"] and not view["terminal"]:
                seen.append(view["search"])
                for entry in (e for e in view["log"] if e["why"] and e["i"] not in asked):
                    status, why = c.get(f"/api/tables/{view['id']}/why/{entry['i']}")
                    seen.append(why)
                    asked.add(entry["i"])
        assert seen
        for search in seen:  # while the game was on: the move, and no number at all
            assert not search["full"] and [r["label"] for r in search["rows"]]
            assert not set(NUMBERS) & (set(search) | set(search["rows"][0])), search
        # bot moves are marked alike, forced or not: which were forced is the bot's secret
        bot_moves = [e for e in view["log"] if e["seat"] == 1]
        assert all(e["why"] for e in bot_moves)
        status, after = c.get(f"/api/tables/{view['id']}/why/{seen[0]['i']}")
        assert after["full"] and after["iterations"] in (0, 30)  # the game over: everything
    finally:
        srv.shutdown()
        srv.server_close()
