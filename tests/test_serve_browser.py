"""The table in a real browser: Debian's headless Chromium driven by Selenium.

- A person plays one game of each registered game against random bots (the form first shows
  the server's default opponent of the game at every other seat), by clicking: a playable
  hand card, else a move button (a card's choices, or pass / take / draw ...), until the result
  shows; the result must be in words. His forced moves play themselves: the page never offers
  a single move to click, and in Brook, where a seat with no cards can only pass, the log
  shows them "(forced)". A screenshot at the person's second decision and one at the end of
  each game are saved under the test's folder.
- A recorded game of a tiny tournament is replayed: filtered by variant, stepped forward and
  back, seen from one seat and with every card open, autoplayed to the end, whose result must
  be the record's.

Nothing here asserts a duration: each game has a generous deadline only so that a stuck
page fails with a screenshot instead of hanging; the durations are printed (``pytest -s``).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pyspiel
import pytest

from skip_ai.pyspiel_wrapper import REGISTRY
from skip_ai.records import read_records
from skip_ai.tournament import load_config, run_tournament

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

GAMES = {
    "skip_pyatki": "skip_pyatki(players=2,deck=36,max_exchanges=20)",
    "skip_pyatki_pairs": "skip_pyatki_pairs(deck=36,max_exchanges=20)",
    "skip_two_captains": "skip_two_captains(players=4,deck=36)",
    "skip_little_country": "skip_little_country(players=4,deck=52,jokers=true,pelicans=3)",
    "skip_columns": "skip_columns(players=4,deck=52)",
    "skip_domino": "skip_domino(players=4,deck=36)",
    "skip_fours": "skip_fours(deck=36)",
    "skip_brook": "skip_brook(players=4,deck=36)",
    "skip_guess": "skip_guess(players=4,deck=36)",
    "skip_harvest": "skip_harvest(players=4,deck=36)",
    "skip_chains": "skip_chains(players=4,deck=36)",
    "classic_sixty_six_4p": "classic_sixty_six_4p(mode=deal)",
    "classic_rummy": "classic_rummy(players=2,max_turns=20)",
}
"""A small variant of every registered game, so that a whole game takes seconds."""
RESULT_WORDS = ("wins", "win", "draw", "nobody wins", "shared first place")
GAME_DEADLINE = 180.0
"""Seconds before a game that has not ended is failed with a screenshot: far above the few
seconds a game takes, so that a loaded machine does not fail it."""
RECORDED = ("skip_columns(players=4,deck=36)", "skip_fours(deck=36)")
"""The tiny tournament's games, whose records the replay test opens."""

NEXT_CLICK = """
if (!document.getElementById('result').classList.contains('hidden')) return ['end', null];
const error = document.getElementById('table-error').textContent;
if (error) return ['error', error];
if (sending || !document.querySelector('#turn.mine')) return ['wait', null];
const card = document.querySelector('#hand .card.playable');
if (card && !document.querySelector('#hand .selected')) return ['card', card];
const buttons = document.querySelectorAll('#moves .move-btn');
if (buttons.length === 1 && !card && current.moves.length === 1) return ['single', null];
return buttons.length ? ['button', buttons[0]] : ['wait', null];
"""
"""What the person clicks next, asked in one round trip: the page's state and the element."""


def test_the_browser_test_plays_every_registered_game():
    assert set(GAMES) == set(REGISTRY)


def serving(srv):
    """Serve ``srv`` from a thread while the caller's fixture lasts (``yield from``)."""
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _driver():
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip(
            "the browser test needs Debian's chromium and chromium-driver "
            "(apt-get install chromium chromium-driver)"
        )
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("the browser test needs selenium (pip install -e '.[browser]')")
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager: never download
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ):
        opts.add_argument(arg)
    # the system driver, given explicitly: Selenium Manager then downloads nothing
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    """A tiny tournament's folder: one deal of each recorded game, random against heuristic."""
    tmp = tmp_path_factory.mktemp("batch")
    config = tmp / "t.toml"
    games = "".join(f'[[games]]\ngame = "{g}"\n' for g in RECORDED)
    config.write_text(
        f'name = "t"\nseed = 1\ndeals = 1\nout = "{tmp / "out"}"\n{games}'
        '[[agents]]\nname = "rnd"\nspec = "random"\n'
        '[[agents]]\nname = "heur"\nspec = "heuristic"\n'
    )
    run_tournament(load_config(config), workers=1)
    return tmp / "out"


@pytest.fixture(scope="module")
def server(records):
    """The server of the records, each game played once by bots first: a kernel used for the
    first time compiles (or loads from Numba's cache) before the browser waits on it."""
    from skip_ai.serve.server import make_server

    srv = make_server("127.0.0.1", 0, records)
    for game in GAMES.values():
        table = srv.app.tables.open(
            {"game": game, "seat": None, "pace": 0, "agents": ["random"] * _seats(game)}
        )
        table.thread.join(timeout=300)
    yield from serving(srv)


@pytest.fixture(scope="module")
def browser():
    driver = _driver()
    start = time.monotonic()
    yield driver
    driver.quit()
    print(f"\nthe browser's tests took {time.monotonic() - start:.0f} s of wall time")


def _seats(game: str) -> int:
    return pyspiel.load_game(game).num_players()


def _wait(browser, until, timeout: float = 60.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout, poll_frequency=0.05).until(until)


def _start(browser, url: str, game: str, auto_forced: bool = True) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from skip_ai.serve.offer import default_agent

    browser.get(url)
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#game option"))
    name, _, body = game.partition("(")
    Select(browser.find_element(By.ID, "game")).select_by_value(name)
    for item in filter(None, body.rstrip(")").split(",")):
        param, value = item.split("=")
        Select(
            browser.find_element(By.CSS_SELECTOR, f'#params select[data-param="{param}"]')
        ).select_by_value(value)
    Select(browser.find_element(By.ID, "seat")).select_by_value("0")
    others = browser.find_elements(By.CSS_SELECTOR, "#agents input:not([disabled])")
    assert {i.get_attribute("value") for i in others} == {default_agent(name)}, name
    box = browser.find_element(By.ID, "others")
    box.clear()
    box.send_keys("random")
    browser.find_element(By.ID, "others-apply").click()
    if not auto_forced:
        browser.find_element(By.ID, "auto-forced").click()
    for field, value in (("pace", "0"), ("seed", "3")):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "start").click()


def _check_the_seat(browser, name: str) -> None:
    """At the person's decision: his hand is shown, the turn is his, his seat (and in a team
    game of four or more his partner's) is marked."""
    from selenium.webdriver.common.by import By

    assert browser.find_element(By.ID, "turn").text == "your move", name
    assert browser.find_element(By.ID, "hand-title").text == "Your hand (seat 0)", name
    assert browser.find_elements(By.CSS_SELECTOR, "#hand .card"), name
    you = browser.find_elements(By.CSS_SELECTOR, '#seats .seat[data-seat="0"] .tag.you')
    assert you, name
    spec = REGISTRY[name]
    if spec.team_game and _seats(GAMES[name]) >= 4:
        assert browser.find_elements(By.CSS_SELECTOR, "#seats .tag.partner"), name


def _play_to_the_end(browser, name: str, folder: Path) -> tuple[int, int]:
    """Click until the result shows; returns (card clicks, button clicks)."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        StaleElementReferenceException,
    )

    clicks = {"card": 0, "button": 0}
    deadline = time.monotonic() + GAME_DEADLINE
    while time.monotonic() < deadline:
        try:
            kind, target = browser.execute_script(NEXT_CLICK)
            if kind == "end":
                return clicks["card"], clicks["button"]
            assert kind != "error", (name, target)
            assert kind != "single", f"{name}: a forced move was offered to click"
            if kind == "wait":
                time.sleep(0.03)
                continue
            if sum(clicks.values()) == 1 and not (folder / f"{name}.png").exists():
                _check_the_seat(browser, name)
                browser.save_screenshot(str(folder / f"{name}.png"))
            target.click()
            clicks[kind] += 1
        except (StaleElementReferenceException, ElementClickInterceptedException):
            continue  # the page redrew under the click: look again
    stuck = folder / f"{name}-stuck.png"
    browser.save_screenshot(str(stuck))
    raise AssertionError(f"{name}: the game did not end in time: the page is in {stuck}")


@pytest.mark.parametrize("name", GAMES)
def test_a_person_plays_a_whole_game(server, browser, tmp_path_factory, name):
    from selenium.webdriver.common.by import By

    folder = tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(exist_ok=True)
    start = time.monotonic()
    _start(browser, server.url, GAMES[name])
    cards, buttons = _play_to_the_end(browser, name, folder)
    result = browser.find_element(By.ID, "result").text
    assert any(w in result for w in RESULT_WORDS), (name, result)
    assert cards + buttons > 0, name
    assert not browser.find_element(By.ID, "table-error").text, name
    browser.save_screenshot(str(folder / f"{name}-end.png"))
    print(
        f"\n{name}: {result!r} after {cards} card and {buttons} button clicks, "
        f"{time.monotonic() - start:.1f} s; screenshots in {folder}"
    )


def test_forced_moves_play_themselves_and_the_log_says_so(server, browser, tmp_path_factory):
    from selenium.webdriver.common.by import By

    folder = tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(exist_ok=True)
    _start(browser, server.url, GAMES["skip_brook"])
    cards, buttons = _play_to_the_end(browser, "skip_brook", folder)
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    forced = [line for line in log if line.endswith("(forced)")]
    table = server.app.tables.get(browser.execute_script("return current.id;"))
    assert forced and len(forced) == len(table.forced), log
    print(f"\nBrook: {cards + buttons} clicks, {len(forced)} forced moves played for the person")
    # the box unchecked: the table asks the person every move
    _start(browser, server.url, GAMES["skip_brook"], auto_forced=False)
    _wait(browser, lambda d: d.execute_script("return current !== null && !!current.id;"))
    table = server.app.tables.get(browser.execute_script("return current.id;"))
    assert table.auto_forced is False


def _record_result(row) -> str:
    """The result the page must show, with every card open, for a team game's record."""
    spec = REGISTRY[row.game_name]
    won, scores = int(row.winner), row.scores
    return f"{spec.team_names[won]} wins {scores[won]:g}–{scores[1 - won]:g}"


def test_a_recorded_game_replays(server, browser, records, tmp_path_factory):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    def position() -> str:
        return browser.find_element(By.ID, "r-pos").text

    def shown(prefix: str):
        return lambda d: position().startswith(prefix)

    start = time.monotonic()
    df = read_records(records / "records").reset_index(drop=True)
    game = next(g for g in df.game.unique() if g.startswith("skip_columns"))
    mine = df[(df.game == game) & (df.winner >= 0)]
    row = next(r for r in mine.itertuples() if r.scores[0] != r.scores[1])
    browser.get(server.url)
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#f-game option")) > 1)
    browser.find_element(By.ID, "tab-records").click()
    rows = "#records-table tbody tr"
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, rows)) == len(df))
    # the variant filter: only that game's records are listed
    Select(browser.find_element(By.ID, "f-game")).select_by_value(game)
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, rows)) == len(mine) < len(df))
    listed = browser.find_elements(By.CSS_SELECTOR, rows)
    assert {r.find_elements(By.TAG_NAME, "td")[1].text for r in listed} == {game}
    pick = next(r for r in listed if r.find_element(By.TAG_NAME, "td").text == str(row.Index))
    pick.find_element(By.TAG_NAME, "button").click()
    _wait(browser, shown("position 0 of"))
    last = int(position().split(" of ")[1].split()[0])
    assert last == row.num_moves
    # forward twice, back once
    for button, expect in (("r-fwd", 1), ("r-fwd", 2), ("r-back", 1)):
        browser.find_element(By.ID, button).click()
        _wait(browser, shown(f"position {expect} of"))
    # every card open: no face-down card at the seats, no hand of one's own
    assert not browser.find_elements(By.CSS_SELECTOR, "#seats .card.back")
    assert not browser.find_element(By.ID, "hand-area").is_displayed()
    # seat 0's view: its hand, the others' cards face down
    Select(browser.find_element(By.ID, "r-seat")).select_by_value("0")
    _wait(browser, lambda d: d.find_element(By.ID, "hand-area").is_displayed())
    assert browser.find_element(By.ID, "hand-title").text == "Seat 0's hand"  # a replay's viewer
    assert browser.find_elements(By.CSS_SELECTOR, "#seats .card.back")
    assert position().startswith("position 1 of")
    Select(browser.find_element(By.ID, "r-seat")).select_by_value("open")
    _wait(browser, lambda d: not d.find_element(By.ID, "hand-area").is_displayed())
    # autoplay, at the fastest speed, to the end
    Select(browser.find_element(By.ID, "r-speed")).select_by_value("0.1")
    browser.find_element(By.ID, "r-play").click()
    _wait(browser, shown(f"position {last} of {last} (the end)"), timeout=GAME_DEADLINE)
    assert browser.find_element(By.ID, "r-play").text == "▶ play"  # stopped at the end
    assert browser.find_element(By.ID, "result").text == _record_result(row)
    assert not browser.find_element(By.ID, "r-note").text  # it ends as recorded
    folder = tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(exist_ok=True)
    browser.save_screenshot(str(folder / "replay-end.png"))
    print(f"\nreplay of record {row.Index}: {last} positions, {time.monotonic() - start:.1f} s")
