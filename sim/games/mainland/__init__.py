"""Mainland (rulebook: ../shared/rules/mainland.txt): 2-4 players overlap 2x2 cards."""
