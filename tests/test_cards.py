import pytest

from skip_ai import cards


def test_ids_follow_rules_0_1():
    assert cards.card_id(0, 2) == 0
    assert cards.card_id(1, 14) == 25
    assert cards.card_id(3, 12) == 13 * 3 + 10
    assert (cards.suit(25), cards.rank(25)) == (1, 14)


def test_text_round_trips_for_every_card():
    for c in range(54):
        assert cards.from_str(cards.to_str(c)) == c
    assert cards.to_str(cards.from_str("Ts")) == "Ts"
    assert [cards.to_str(c) for c in (52, 53)] == ["BJ", "RJ"]
    text = "2c Ts Qh Ad BJ RJ"
    assert cards.cards_to_str(cards.cards_from_str(text)) == text


@pytest.mark.parametrize("bad", ["", "1s", "Tx", "10h", "JJ", "Qhh"])
def test_bad_text_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="not a card"):
        cards.from_str(bad)


def test_colours_and_values():
    assert cards.colour(cards.from_str("As")) == cards.BLACK
    assert cards.colour(cards.from_str("2c")) == cards.BLACK
    assert cards.colour(cards.from_str("Kd")) == cards.RED
    assert cards.colour(cards.from_str("3h")) == cards.RED
    assert cards.colour(cards.BLACK_JOKER) == cards.BLACK
    assert cards.colour(cards.RED_JOKER) == cards.RED
    assert cards.value(cards.from_str("Jh")) == 11
    assert cards.value(cards.from_str("Ac")) == 14
    assert cards.value(cards.RED_JOKER) == 11
    with pytest.raises(ValueError, match="joker"):
        cards.suit(52)


@pytest.mark.parametrize(
    "size,jokers,expected_len,lowest",
    [
        (52, False, 52, 2),
        (36, False, 36, 6),
        (24, False, 24, 9),
        (52, True, 54, 2),
        (36, True, 38, 6),
    ],
)
def test_decks(size, jokers, expected_len, lowest):
    d = cards.deck(size, jokers)
    assert len(d) == expected_len == len(set(d.tolist()))
    plain = [c for c in d if c < 52]
    assert min(cards.rank(c) for c in plain) == lowest
    assert all(cards.rank(c) <= 14 for c in plain)
    assert (52 in d) == jokers and (53 in d) == jokers
    assert list(d) == sorted(d)


def test_same_id_means_same_card_in_every_deck():
    qh = cards.from_str("Qh")
    assert all(qh in cards.deck(n) for n in (24, 36, 52))


def test_unknown_deck_size():
    with pytest.raises(ValueError, match="deck size"):
        cards.deck(40)
