"""Tic-tac-toe as a Skald game plug-in (the rules are in this package's README, lines R1-R5)."""
