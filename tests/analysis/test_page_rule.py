"""The page-level rule (reference/decisive-verdicts.md section 4): the verdicts page corrects the
decisions its verdicts rest on once more across the page (Holm), states the rule, and sets in bold only
a difference that survives it; a rule-variant comparison leads with each side's fairness and the change
between them (``<position> fairness change``)."""

from __future__ import annotations

from analysis.present.findings import DIFFERENCE, EQUAL_CHANCES, FAIRNESS, FAIRNESS_CHANGE, Finding
from analysis.report.verdicts import Verdict, page_rule, verdicts, with_page_rule


def _fairness(group: int, decision: str, p: float) -> list[Finding]:
    groups = {"players": group, "variant": "defaults", "mix": "greedy"}
    test = Finding(
        "mainland",
        "seats",
        "seat equal chances",
        groups,
        estimate=0.1,
        p_value=p,
        p_adjusted=p,
        question=EQUAL_CHANCES,
        subject="seat",
    )
    fair = Finding(
        "mainland",
        "seats",
        "seat fairness",
        groups,
        question=FAIRNESS,
        subject="seat",
        estimate=0.35,
        low=0.3,
        high=0.4,
        p_value=p,
        expected=0.25,
        games=400,
        clusters=100,
        family=4,
        decision=decision,
        margin=0.05,
        position="1",
        half_width=0.05,
        games_needed=None if decision != "undecided" else 800,
    )
    return [test, fair]


def test_a_page_of_decisions_keeps_only_the_differences_that_survive_holm_across_it() -> None:
    """Two unfair groups (p 0.001 and 0.03) among four decisions: Holm over the four keeps 0.004 and
    makes the other 0.09, so only the first verdict is bold, and the rule counts four decisions."""
    findings = [
        *_fairness(2, "unfair", 0.001),
        *_fairness(3, "unfair", 0.03),
        *_fairness(4, "undecided", 0.4),
        *_fairness(5, "undecided", 0.6),
    ]
    found = verdicts([f for f in findings])
    assert len(found) == 1  # one question: four groups, one verdict, its claims one per group
    assert found[0].claims == (0.001, 0.03, 1.0, 1.0)
    assert found[0].significant  # group 2 survives
    rule = page_rule(found)
    assert rule is not None and rule["method"] == "Holm" and rule["family"] == 4 and rule["survive"] == 1


def test_a_verdict_whose_differences_all_fail_the_page_rule_is_not_bold() -> None:
    """Each verdict alone shows a difference at 5%, but not after Holm across the page's 3 decisions."""
    made = [
        Verdict("g", "a", "text", "", True, claims=(0.03,)),
        Verdict("g", "b", "text", "", True, claims=(0.04,)),
        Verdict("g", "c", "text", "", False, claims=(0.5,)),
        Verdict("g", "tuned configuration", "text", "", True, "tune"),  # outside the family: kept
    ]
    kept, rule = with_page_rule(made)
    assert rule is not None and rule.family == 3
    assert [v.significant for v in kept] == [False, False, False, True]
    alone, _ = with_page_rule(made[:1])
    assert alone[0].significant  # a page of one decision: its own 5% level


def test_a_variant_comparison_leads_with_the_fairness_change() -> None:
    """The comparison's verdict names each side's fairness and the change between them before the
    other measures, and a change shown makes it bold."""
    groups = {"players": 3, "mix": "greedy", "base": "off", "value": "on"}
    change = Finding(
        "graenaland",
        "cmp",
        "start position fairness change",
        groups,
        question=FAIRNESS_CHANGE,
        subject="start position",
        estimate=-0.12,
        low=-0.2,
        high=-0.04,
        p_value=0.004,
        expected=0.0,
        games=800,
        clusters=200,
        family=3,
        decision="changes",
        margin=0.05,
        position="3",
        half_width=0.07,
    )
    sides = [
        Finding(
            "graenaland",
            "cmp",
            "start position fairness",
            {**groups, "side": name},
            question=FAIRNESS,
            subject="start position",
            estimate=0.3,
            low=0.25,
            high=0.35,
            p_value=0.2,
            expected=1 / 3,
            decision="undecided",
            margin=0.05,
            position="1",
            half_width=0.06,
            games_needed=500,
        )
        for name in ("off", "on")
    ]
    length = Finding(
        "graenaland",
        "cmp",
        "game length difference",
        groups,
        question=DIFFERENCE,
        subject="game length",
        estimate=1.0,
        low=0.5,
        high=1.5,
        p_value=0.2,
        p_adjusted=0.2,
        correction="Holm",
        family=1,
        unit="rounds",
    )
    (found,) = verdicts([change, *sides, length])
    assert found.kind == "comparison" and found.significant
    assert found.text.startswith("Start position fairness: on: undecided at a 5-point margin")
    assert "the change: changed: start position 3's win share moves -12.0 [-20.0, -4.0] points" in found.text
    assert "(Holm p = 0.004 over 3 start positions" in found.text
    assert found.text.index("the change") < found.text.index("Other measures")
    assert found.claims[0] == 0.004


def test_several_groups_read_as_one_sentence_naming_the_unfair_and_counting_the_rest() -> None:
    """A question decided in several groups names each unfair group with its evidence, then counts the
    undecided ones with the range of their half-widths and of the games that would decide them."""
    findings = [
        *_fairness(2, "unfair", 0.001),
        *_fairness(3, "undecided", 0.4),
        *_fairness(4, "undecided", 0.6),
    ]
    (found,) = verdicts(findings)
    assert found.text.startswith("At a 5-point margin, 1 of 3 groups unfair: 2 players, default rules")
    assert "seat 1 wins 35.0% [30.0, 40.0] against an even 25% (Holm p = 0.001 over 4 seats" in found.text
    assert found.text.endswith(
        "2 of 3 undecided: seat shares known to ±5.0 points, about 800 more games would decide each if"
        " the estimates held."
    )
