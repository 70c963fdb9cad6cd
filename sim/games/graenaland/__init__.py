"""Graenaland (Vlaada Chvatil, 2006): rulebook ../shared/rules/graenaland.txt."""
