"""The one play loop: events in order, each seen before it is applied."""

import io
import re

import pyspiel

from agents import make_agent
from skip_ai.cli.play import Thinking
from skip_ai.kernel.rng import below, make_rng
from skip_ai.play import forced_action, play

GAME = "skip_columns(players=2,deck=36)"


def test_callbacks_see_every_event_before_it_is_applied():
    game = pyspiel.load_game(GAME)
    bots = [make_agent("random", game, seed=p) for p in range(2)]
    events = []

    def turn(state, player):
        assert state.current_player() == player
        events.append(("turn", len(state.history()), player))

    def decision(d):
        assert d.action in d.state.legal_actions() and d.seconds >= 0 and d.policy is None
        events.append(("decision", len(d.state.history()), d.player))

    def chance(state, outcome):
        assert state.is_chance_node() and outcome in state.legal_actions()
        events.append(("chance", len(state.history()), outcome))

    state = play(
        game.new_initial_state(),
        bots,
        make_rng(5),
        on_turn=turn,
        on_decision=decision,
        on_chance=chance,
    )
    assert state.is_terminal()
    history = state.full_history()
    applied = [e for e in events if e[0] != "turn"]
    assert [e[1] for e in applied] == list(range(len(history)))  # one event per action
    assert [e[0] == "chance" for e in applied] == [h.player < 0 for h in history]
    turns = [e[1:] for e in events if e[0] == "turn"]
    assert turns == [e[1:] for e in events if e[0] == "decision"]


def test_policies_are_asked_for_only_when_wanted_and_the_deal_follows_the_seed():
    game = pyspiel.load_game(GAME)
    seen = []
    deals = []
    for policies in (False, True):
        bots = [make_agent("random", game, seed=p) for p in range(2)]
        state = play(
            game.new_initial_state(),
            bots,
            make_rng(9),
            policies=policies,
            on_decision=lambda d: seen.append(d.policy),
        )
        first_move = next(i for i, h in enumerate(state.full_history()) if h.player >= 0)
        deals.append(state.history()[:first_move])
    assert deals[0] == deals[1]
    half = len(seen) // 2
    assert all(p is None for p in seen[:half])
    assert all(abs(sum(q for _, q in p) - 1) < 1e-9 for p in seen[half:])


class Asked:
    """A random bot that notes every state it is asked to move in."""

    def __init__(self, bot):
        self.bot = bot
        self.legal_counts = []

    def step(self, state):
        self.legal_counts.append(len(state.legal_actions()))
        return self.bot.step(state)


def test_a_forced_move_is_one_legal_action():
    game = pyspiel.load_game("skip_brook(players=4,deck=36)")
    state = game.new_initial_state()
    assert forced_action(state) is None  # chance: the deal
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert forced_action(state) is None  # a full hand: a choice
    rng = make_rng(3)
    seen = 0
    while not state.is_terminal():
        legal = state.legal_actions() if not state.is_chance_node() else None
        if legal is not None and len(legal) == 1:
            assert forced_action(state) == legal[0]
            seen += 1
        elif legal is not None:
            assert forced_action(state) is None
        outcomes = state.legal_actions()
        state.apply_action(outcomes[below(rng, len(outcomes))])
    assert seen and forced_action(state) is None


def test_the_seats_auto_forced_are_never_asked_a_forced_move():
    # Brook: a seat with no cards left can only pass
    game = pyspiel.load_game("skip_brook(players=4,deck=36)")
    bots = [Asked(make_agent("random", game, seed=p)) for p in range(4)]
    decisions = []  # (player, legal actions, forced), as each decision is made

    def note(d):
        decisions.append((d.player, len(d.state.legal_actions()), d.forced))

    state = play(game.new_initial_state(), bots, make_rng(2), on_decision=note, auto_forced={0})
    assert state.is_terminal()
    forced = [d for d in decisions if d[2]]
    assert forced and all(d[:2] == (0, 1) for d in forced)
    assert 1 not in bots[0].legal_counts  # seat 0 was asked only real choices
    assert 1 in [n for b in bots[1:] for n in b.legal_counts]  # the others were asked all
    assert len(decisions) == sum(h.player >= 0 for h in state.full_history())


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_thinking_shows_on_a_terminal_only_and_is_wiped():
    tty, pipe = Terminal(), io.StringIO()
    for out in (tty, pipe):
        thinking = Thinking(["human", "ismcts(seconds=1)"], {0}, out)
        thinking.start(0)  # the person's turn: nothing
        thinking.start(1)
        thinking.stop()
        out.write("1. seat 1: 7s\n")
    assert tty.getvalue() == "  seat 1 (ismcts(seconds=1)) thinking…\r\x1b[K1. seat 1: 7s\n"
    assert pipe.getvalue() == "1. seat 1: 7s\n"


def person_plays(monkeypatch, capsys, *options: str) -> str:
    """``skip-ai play`` of a Brook game with a person at seat 0 answering 1 to every prompt;
    what it printed."""
    from skip_ai.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 200))
    game = "skip_brook(players=4,deck=36)"
    assert main(["play", game, "--seat", "0=human", "--seed", "2", *options]) == 0
    return capsys.readouterr().out


def test_a_persons_forced_moves_are_played_for_him_unless_asked_not_to(monkeypatch, capsys):
    text = person_plays(monkeypatch, capsys)
    numbers = [int(m) for m in re.findall(r"· move (\d+) ·", text)]
    assert numbers and numbers[0] <= 4 and numbers == sorted(numbers)  # the deal is no move
    forced = re.findall(r"move (\d+): you (.+) \(forced: your only legal move\)", text)
    assert forced, text[-2000:]
    assert "thinking" not in text  # not a terminal: a clean transcript
    asked = person_plays(monkeypatch, capsys, "--no-auto-forced")
    assert "(forced" not in asked
    prompts = re.findall(r"· move (\d+) ·", asked)
    assert len(prompts) == len(numbers) + len(forced)  # the same game, every move asked
    assert sorted(map(int, prompts)) == sorted(numbers + [int(n) for n, _ in forced])


def test_a_terminal_shows_thinking_while_a_bot_searches():
    from test_human import terminal_game

    code, text = terminal_game([], seat="0=human", game="skip_brook(players=4,deck=36)")
    assert code == 0 and "Traceback" not in text, text[-2000:]
    assert "(ismcts(iterations=50)) thinking…\r\x1b[K" in text
    assert "(forced: your only legal move)" in text
