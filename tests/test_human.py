"""The human agent, driven through a pseudo-terminal like a person at the keyboard."""

import io
import os
import platform
import pty
import select
import signal
import subprocess
import sys
import time

import numpy as np
import pyspiel
import pytest
from terminal import ctrl_c_works

from agents.human import HumanBot, QuitGame

READ_SYSCALL = {"x86_64": "0", "aarch64": "63"}  # read(2)'s number, as /proc/PID/syscall shows
PROMPT = b"your move (number or text; q to quit):"


def terminal_game(
    answers,
    *,
    seat="1=human",
    game="skip_columns(players=2,deck=36)",
    interrupt_at: int | None = None,
):
    """Play ``game`` in a pseudo-terminal, answering each prompt from ``answers`` (then
    "1"); with ``interrupt_at``, press Ctrl-C at that prompt instead. Returns (exit code,
    everything the terminal showed)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "skip_ai.cli",
            "play",
            game,
            "--seat",
            seat,
            "--others",
            "ismcts(iterations=50)",
            "--seed",
            "4",
        ],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
        preexec_fn=ctrl_c_works,
    )
    os.close(slave)
    output = b""
    answers = iter(answers)
    prompts = 0
    deadline = time.time() + 120
    while select.select([master], [], [], max(0.0, deadline - time.time()))[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
        if output.rstrip().endswith(PROMPT):
            prompts += 1
            if prompts == interrupt_at:
                waits_for_a_key(proc.pid)
                proc.send_signal(signal.SIGINT)
            else:
                os.write(master, next(answers, b"1\n"))
    if proc.poll() is None and time.time() >= deadline:
        proc.kill()  # a game that stopped answering fails with what it showed, never hangs
    proc.wait(timeout=30)
    os.close(master)
    return proc.returncode, output.decode()


def waits_for_a_key(pid: int) -> None:
    """Until process ``pid`` is blocked reading its terminal, as it is when a person presses a
    key. Sent between its last check for signals and its read, a SIGINT would only mark itself
    pending (CPython's read does not look for signals before blocking) and the game would wait
    for a line: a window of microseconds for a person, but the test answers the prompt at once."""
    read = READ_SYSCALL.get(platform.machine())
    deadline = time.time() + 30
    while read is not None and time.time() < deadline:
        try:
            with open(f"/proc/{pid}/syscall") as f:
                if f.read().split()[0] == read:
                    return
        except (OSError, IndexError):
            break
        time.sleep(0.01)
    time.sleep(1.0)  # no way to see it: a second is ample


def test_a_person_plays_a_whole_game_in_a_terminal():
    code, text = terminal_game([b"zz\n", b"99\n"])  # two bad answers: asked again each time
    assert code == 0, text[-2000:]
    assert "'zz' is not one of the moves" in text and "'99' is not one of the moves" in text
    assert "your hand:" in text and "moves:\r\n  1) " in text
    assert "you are seat 1 (Black)\r\n" in text
    assert "hand sizes: seat 0 17 · seat 1 (you) 18" in text
    assert "sees:" not in text  # the header is said once, from the seat
    assert "Final position" in text and "returns" not in text
    assert "*** seat 0 wins 9–0: you lost ***" in text
    assert "After the deal" not in text  # the other hands stay hidden from the person
    assert "Traceback" not in text


def test_q_leaves_the_game_in_one_line():
    code, text = terminal_game([b"q\n"])
    assert code == 0 and "skip-ai: seat 1 left the game" in text
    assert "Traceback" not in text and "Final position" not in text


def test_ctrl_c_ends_the_game_in_one_line():
    code, text = terminal_game([], interrupt_at=2)
    assert code == 130, text[-1000:]
    assert text.rstrip().endswith("skip-ai: interrupted") and "Traceback" not in text


def position(game: str, seat: int, moves: int, seed: int = 1) -> pyspiel.State:
    """A random position of ``game`` after ``moves`` actions, ``seat`` to move."""
    state = pyspiel.load_game(game).new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node() or len(state.history()) < moves or state.current_player() != seat:
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_person_is_told_who_is_who_and_the_moves_fit_the_terminal():
    state = position("skip_little_country(players=6,jokers=true)", 1, 70)
    out = io.StringIO()
    bot = HumanBot(io.StringIO("1\n"), out, width=60)
    bot.step(state)
    text = out.getvalue()
    assert "you are seat 1 (Red); your partners are seat 0 and seat 2" in text
    assert "seat 0 (partner)" in text and "seat 2 (partner)" in text
    assert "seat 3 " in text and "(you)" in text
    lines = text.splitlines()
    assert all(len(line) <= 60 for line in lines if not line.startswith("your move"))
    moves = lines[lines.index("moves:") + 1 : -1]
    texts = [state.action_to_string(1, a) for a in state.legal_actions()]
    cells = [cell for line in moves for cell in line.split("  ") if cell.strip()]
    assert [c.split(") ", 1)[1].strip() for c in cells] == texts  # whole, in order
    starts = {
        line.index(c.strip()) for line in moves[:-1] for c in line.split("  ")[2:3] if c.strip()
    }
    assert len(starts) <= 1  # the second column starts at the same place on every line


def test_human_bot_accepts_move_text_and_reports_what_happened():
    game = pyspiel.load_game("skip_columns(players=2,deck=36)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    first = state.action_to_string(state.current_player(), state.legal_actions()[-1])
    out = io.StringIO()
    bot = HumanBot(io.StringIO(f"{first}\n1\n"), out)
    action = bot.step(state)
    assert action == state.legal_actions()[-1]
    state.apply_action(action)
    state.apply_action(state.legal_actions()[0])  # the other seat
    bot.step(state)
    assert "since your last move: seat 1 " in out.getvalue()


def test_quit_is_a_keyboard_interrupt_with_a_message():
    state = position("skip_columns(players=2,deck=36)", 0, 0)
    with pytest.raises(QuitGame, match="seat 0 left the game"):
        HumanBot(io.StringIO("quit\n"), io.StringIO()).step(state)


def test_the_end_is_said_in_words_from_the_seat():
    state = position("skip_columns(players=4,deck=36)", 0, 0)
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    out = io.StringIO()
    HumanBot(io.StringIO(), out).show_end(state, 2)
    won = 0 if state.returns()[0] > 0 else 1
    a, b = sorted(state.scores(), reverse=True)
    expected = (
        f"your team (Black) wins {a:g}–{b:g}"
        if won == 1
        else f"Red wins {a:g}–{b:g}: your team lost"
    )
    assert f"*** {expected} ***" in out.getvalue()
