"""Words laid out in a picture (``sim.picture.text_width`` and ``fit_lines``): measured in DejaVu Sans, the
wide sans-serif a layout must fit, and wrapped to a width."""

from __future__ import annotations

from sim.picture import fit_lines, text_width


def test_text_width_is_dejavu_sans() -> None:
    """DejaVu Sans advances: 'reputation' is 5.216 em, 'VP' 1.287 em; bold is wider; other characters
    count (the middle dot, an en dash), unknown ones as wide ones."""
    assert abs(text_width("reputation", 11) - 57.376) < 1e-9
    assert abs(text_width("VP", 10) - 12.87) < 1e-9
    assert text_width("VP", 10, bold=True) > text_width("VP", 10)
    assert abs(text_width("a · b – c", 10) - text_width("a", 10) - text_width(" · b – c", 10)) < 1e-9
    assert text_width("·–", 10) == 8.18
    assert text_width("\u2603", 10) == 7.0


def test_fit_lines_joins_parts_within_the_width() -> None:
    parts = ["LoI: brc raid", "TL: raid", "new colour: coin raid", "raid most: 2 VP"]
    lines = fit_lines(parts, 150, 11, " · ")
    assert lines == ["LoI: brc raid · TL: raid", "new colour: coin raid", "raid most: 2 VP"]
    assert all(text_width(line, 11) <= 150 for line in lines)
    assert " · ".join(lines) == " · ".join(parts), "nothing is lost or reordered"
    assert fit_lines(["a much longer part than the width"], 20, 11) == ["a much longer part than the width"]
    assert fit_lines("cost 1 yellow + 2 blue + 2 purple".split(), 131, 11) == [
        "cost 1 yellow + 2 blue",
        "+ 2 purple",
    ]
