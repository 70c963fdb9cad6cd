"""`skald records GAME`: each action kind with the action columns it fills, what every column holds,
from the game's ``action_kinds`` and ``action_docs`` and the tables' schemas; ``--markdown`` for the docs."""

from __future__ import annotations

import pytest

from sim.cli import main
from sim.games import GAMES, get_game
from sim.tables import COLUMN_MEANINGS as COLUMN_DOCS
from sim.tables import games_schema, seats_schema, turns_schema


def markdown(capsys: pytest.CaptureFixture[str], game: str) -> dict[str, list[list[str]]]:
    """``skald records GAME --markdown`` read back: each table's rows by its heading."""
    with pytest.raises(SystemExit) as info:
        main(["records", game, "--markdown"])
    assert info.value.code in (0, None)
    tables: dict[str, list[list[str]]] = {}
    title = ""
    for line in capsys.readouterr().out.splitlines():
        if line.startswith("### "):
            title = line[4:]
            tables[title] = []
        elif line.startswith("| "):
            tables[title].append([cell.strip() for cell in line.strip("|").split(" | ")])
    return {title: rows[1:] for title, rows in tables.items()}  # without the header row


def schema_columns(game: object) -> list[tuple[str, str]]:
    schemas = {
        "games": games_schema(),
        "seats": seats_schema(game.part_fields),  # type: ignore[attr-defined]
        "turns": turns_schema(game.action_fields),  # type: ignore[attr-defined]
    }
    return [(table, column.name) for table, schema in schemas.items() for column in schema]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_records_lists_every_kind_and_column_of_every_game(capsys, name: str) -> None:
    game = get_game(name)
    tables = markdown(capsys, name)
    kinds_table, columns_table, every_table = tables.values()
    kinds = getattr(game, "action_kinds", None)
    docs = getattr(game, "action_docs", None)
    if kinds is None:
        assert kinds_table == [["-", f"{name} does not declare its action kinds (action_kinds)"]]
    else:
        assert {row[0]: row[1] for row in kinds_table} == {k: ", ".join(v) or "-" for k, v in kinds.items()}
    assert [row[0] for row in columns_table] == list(game.action_fields)
    for field, meaning, users in columns_table:
        if docs is not None:
            assert meaning == docs[field].replace("|", "\\|")
        if kinds is not None:
            assert users == (", ".join(k for k, v in kinds.items() if field in v) or "-")
    assert [(row[0], row[1]) for row in every_table] == schema_columns(game)


def test_every_fixed_column_has_a_meaning() -> None:
    """A column added to a table needs its line in ``COLUMN_DOCS`` (the game's own columns aside)."""
    game = get_game("mainland")
    fixed = [(t, c) for t, c in schema_columns(game) if c not in (*game.action_fields, *game.part_fields)]
    assert sorted(fixed) == sorted((t, c) for t, docs in COLUMN_DOCS.items() for c in docs)


def test_a_game_without_the_declarations_says_so(registered: str, capsys) -> None:
    kinds, columns, every = markdown(capsys, registered).values()
    assert kinds == [["-", "secretbid does not declare its action kinds (action_kinds)"]]
    assert columns == [
        [field, "secretbid does not declare its action columns' meanings (action_docs)", "?"]
        for field in ("round", "bid")
    ]
    assert ["seats", "rounds_won", "float64", "a secretbid score part or play statistic"] in every
    with pytest.raises(SystemExit) as info:  # the terminal's tables too
        main(["records", registered])
    assert info.value.code in (0, None) and "game_seed" in capsys.readouterr().out


def test_an_unknown_game_is_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["records", "nosuchgame"])
    assert info.value.code == 2 and capsys.readouterr().err.startswith("error: unknown game 'nosuchgame'")
