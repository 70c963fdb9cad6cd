"""Skald: a fast, headless simulator for scripted-strategy board-game play."""

__version__ = "0.1.0"
