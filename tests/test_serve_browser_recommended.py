"""The recommended variant in a real browser (Debian's headless Chromium driven by Selenium, as
``tests/test_serve_browser.py``): on the start page a person chooses Columns, clicks "Play the
recommended variant", which sets the form's fields (the levers among them, grouped under their
own heading) to the recommended values, starts, and the table plays that variant."""

from __future__ import annotations

import pytest
from test_serve_browser import _driver, _wait, serving

from skip_ai.pyspiel_wrapper import REGISTRY
from skip_ai.rules.recommended import recommended


@pytest.fixture(scope="module")
def server():
    from skip_ai.serve.server import make_server

    yield from serving(make_server("127.0.0.1", 0))


@pytest.fixture(scope="module")
def browser():
    driver = _driver()
    yield driver
    driver.quit()


def _param(browser, name: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    return Select(browser.find_element(By.CSS_SELECTOR, f'#params select[data-param="{name}"]'))


def test_the_recommended_variant_is_one_click_away(server, browser, tmp_path_factory):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    rec = recommended()["skip_columns"]
    folder = tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(exist_ok=True)
    browser.get(server.url)
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#game option"))
    # a game without a recommendation offers no button
    Select(browser.find_element(By.ID, "game")).select_by_value("classic_rummy")
    assert not browser.find_element(By.ID, "use-recommended").is_displayed()
    Select(browser.find_element(By.ID, "game")).select_by_value("skip_columns")
    button = browser.find_element(By.ID, "use-recommended")
    assert button.is_displayed() and button.text == "Play the recommended variant"
    assert rec.why in browser.find_element(By.ID, "recommended-why").text
    # the levers stand apart from the rules' own parameters, under their heading
    group = browser.find_element(By.CSS_SELECTOR, "#params .levers")
    assert "Levers (changes of the rules to try)" in group.text
    levers = {s.get_attribute("data-param") for s in group.find_elements(By.TAG_NAME, "select")}
    assert levers == {p.name for p in REGISTRY["skip_columns"].levers} >= {"first_seat", "komi"}
    assert _param(browser, "first_seat").first_selected_option.get_attribute("value") == "0"
    assert not browser.find_element(By.ID, "recommended-set").is_displayed()
    browser.save_screenshot(str(folder / "recommended-start.png"))

    button.click()
    for name, value in rec.params.items():
        chosen = _param(browser, name).first_selected_option.get_attribute("value")
        assert chosen == str(value), name
    assert browser.find_element(By.ID, "recommended-set").is_displayed()
    browser.save_screenshot(str(folder / "recommended-form.png"))
    # a field changed by hand: the form no longer shows the recommended variant
    _param(browser, "komi").select_by_value("1")
    assert not browser.find_element(By.ID, "recommended-set").is_displayed()
    button.click()
    assert browser.find_element(By.ID, "recommended-set").is_displayed()

    # watch random bots play it, at once
    Select(browser.find_element(By.ID, "seat")).select_by_value("watch")
    box = browser.find_element(By.ID, "others")
    box.clear()
    box.send_keys("random")
    browser.find_element(By.ID, "others-apply").click()
    pace = browser.find_element(By.ID, "pace")
    pace.clear()
    pace.send_keys("0")
    browser.find_element(By.ID, "start").click()
    _wait(browser, lambda d: d.execute_script("return current !== null && !!current.id;"))
    game = browser.execute_script("return current.game;")
    assert game == rec.game_string == "skip_columns(deck=52,komi=5,players=4)"
    assert browser.find_element(By.ID, "title").text.endswith("komi +5")
    table = server.app.tables.get(browser.execute_script("return current.id;"))
    assert str(table.state.get_game()) == rec.game_string
    browser.save_screenshot(str(folder / "recommended-table.png"))
