"""The skip-ai command line, called in-process."""

import pandas as pd

from skip_ai.cli import main


def test_games_lists_every_game_with_parameters(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "skip_columns" in out and "Столбики" in out
    assert "players" in out and "default 4" in out and "2, 4, 6" in out


def test_play_prints_a_readable_game(capsys):
    assert main(["play", "skip_columns(players=2,deck=36)", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "After the deal:" in out and "seat 0 (Red):" in out
    assert "  1. seat 0: " in out and " 36. seat 1: " in out
    assert "Final position:" in out and "returns" in out


def test_simulate_prints_rates_and_writes_parquet(tmp_path, capsys):
    out_file = tmp_path / "runs" / "cols.parquet"
    assert (
        main(["simulate", "skip_columns", "-n", "500", "--seed", "2", "--out", str(out_file)]) == 0
    )
    out = capsys.readouterr().out
    assert "Red" in out and "Black" in out and "95% CI" in out and "mean length" in out
    df = pd.read_parquet(out_file)
    assert len(df) == 500 and {"seed", "return_0", "score_1", "num_actions"} <= set(df.columns)


def test_errors_are_reported_not_raised(capsys):
    assert main(["simulate", "skip_columns(players=3)", "-n", "5"]) == 2
    assert "players=3 is not allowed" in capsys.readouterr().err
    assert main(["play", "no_such_game"]) == 2
    assert "unknown game" in capsys.readouterr().err


def test_pyatki_play_and_simulate_per_seat(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "skip_pyatki " in out and "«Пятки»" in out and "«Пятки двое на двое»" in out
    assert main(["play", "skip_pyatki(players=3)", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "trump: " in out and "exchange 1: seat " in out and "ATTACK" in out
    assert "scores: seat 0 " in out and "[out: place 1]" in out
    assert main(["simulate", "skip_pyatki(players=4)", "-n", "300"]) == 0
    out = capsys.readouterr().out
    assert all(f"seat {q} " in out for q in range(4)) and "no winner" in out
