"""The human agent, driven through a pseudo-terminal like a person at the keyboard."""

import io
import os
import pty
import subprocess
import sys
import time

import pyspiel

from agents.human import HumanBot


def test_a_person_plays_a_whole_game_in_a_terminal():
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "skip_ai.cli", "play", "skip_columns(players=2,deck=36)",
         "--seat", "1=human", "--others", "ismcts(iterations=50)", "--seed", "4"],
        stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    output = b""
    answers = iter([b"zz\n", b"99\n"])  # two bad answers first: asked again each time
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
        if output.rstrip().endswith(b"your move (number or text):"):
            os.write(master, next(answers, b"1\n"))
    proc.wait(timeout=30)
    os.close(master)
    text = output.decode()
    assert proc.returncode == 0, text[-2000:]
    assert "'zz' is not one of the moves" in text and "'99' is not one of the moves" in text
    assert "hand:" in text and "moves: 1)" in text
    assert "Final position" in text and "returns" in text
    assert "After the deal" not in text  # the other hands stay hidden from the person


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
    assert "since your last move: seat 1" in out.getvalue()
