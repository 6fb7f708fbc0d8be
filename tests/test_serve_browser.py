"""The table in a real browser: Debian's headless Chromium driven by Selenium opens the page,
starts a game of each family against random bots, clicks legal moves (cards first, the
buttons of a card's choices or of pass / take / draw otherwise) until the game ends, checks
the result text and saves a screenshot per family under the test's folder."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

FAMILIES = {
    "fields": "skip_little_country(players=4,deck=52,jokers=true,pelicans=3)",
    "columns": "skip_columns(players=4,deck=52)",
    "guess": "skip_guess(players=4,deck=36)",
    "grid": "skip_domino(players=4,deck=36)",
    "stream": "skip_brook(players=4,deck=36)",
    "fours": "skip_fours(deck=36)",
    "chains": "skip_chains(players=4,deck=36)",
    "attack": "skip_pyatki(players=2,deck=36,max_exchanges=20)",
    "sixty_six": "classic_sixty_six_4p(mode=deal)",
    "rummy": "classic_rummy(players=2,max_turns=20)",
}
"""One game per family of tables; small variants so that a whole game takes seconds."""
RESULT_WORDS = ("wins", "win", "draw", "nobody wins", "shared first place")


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
def server():
    """The server, each family's game played once by bots first: a kernel used for the first
    time compiles (or loads from Numba's cache), which is not what the browser test times."""
    from skip_ai.serve.server import make_server

    srv = make_server("127.0.0.1", 0)
    for game in FAMILIES.values():
        table = srv.app.tables.open(
            {"game": game, "seat": None, "pace": 0, "agents": ["random"] * _seats(game)}
        )
        table.thread.join(timeout=300)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def browser():
    driver = _driver()
    yield driver
    driver.quit()


def _seats(game: str) -> int:
    import pyspiel

    return pyspiel.load_game(game).num_players()


def _start(browser, url: str, game: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(url)
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game option"))
    name, _, body = game.partition("(")
    Select(browser.find_element(By.ID, "game")).select_by_value(name)
    for item in filter(None, body.rstrip(")").split(",")):
        param, value = item.split("=")
        Select(
            browser.find_element(By.CSS_SELECTOR, f'#params select[data-param="{param}"]')
        ).select_by_value(value)
    Select(browser.find_element(By.ID, "seat")).select_by_value("0")
    pace = browser.find_element(By.ID, "pace")
    pace.clear()
    pace.send_keys("0")
    seed = browser.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("3")
    browser.find_element(By.ID, "start").click()


def _play_to_the_end(browser, deadline: float, folder: Path, family: str) -> tuple[int, int]:
    """Click until the result shows: a playable hand card, then a move button (a card's
    choices, or pass / take / draw ...); a screenshot at the person's second decision.
    Returns (card clicks, button clicks)."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.common.by import By

    cards = buttons = 0
    while time.time() < deadline:
        if browser.find_element(By.ID, "result").is_displayed():
            return cards, buttons
        try:
            if not browser.find_elements(By.CSS_SELECTOR, "#turn.mine"):
                time.sleep(0.03)
                continue
            playable = browser.find_elements(By.CSS_SELECTOR, "#hand .card.playable")
            chooser = browser.find_elements(By.CSS_SELECTOR, "#moves .move-btn")
            if cards + buttons == 1 and not (folder / f"{family}.png").exists():
                browser.save_screenshot(str(folder / f"{family}.png"))
            if playable and not browser.find_elements(By.CSS_SELECTOR, "#hand .selected"):
                playable[0].click()
                cards += 1
            elif chooser:
                chooser[0].click()
                buttons += 1
            time.sleep(0.03)
        except (StaleElementReferenceException, ElementClickInterceptedException):
            continue  # the page redrew under the click: look again
    stuck = folder / f"{family}-stuck.png"
    browser.save_screenshot(str(stuck))
    raise AssertionError(f"the game did not end in time: the page is in {stuck}")


def test_a_person_plays_a_game_of_every_family(browser, server, tmp_path):
    from selenium.webdriver.common.by import By

    t0 = time.time()
    for family, game in FAMILIES.items():
        _start(browser, server.url, game)
        cards, buttons = _play_to_the_end(browser, time.time() + 40, tmp_path, family)
        result = browser.find_element(By.ID, "result").text
        assert any(w in result for w in RESULT_WORDS), (family, result)
        assert cards + buttons > 0, family
        errors = browser.find_element(By.ID, "table-error").text
        assert not errors, (family, errors)
        browser.save_screenshot(str(tmp_path / f"{family}-end.png"))
        print(f"{family}: {result!r} after {cards} card and {buttons} button clicks")
    assert time.time() - t0 < 120
    print("screenshots in", tmp_path)
