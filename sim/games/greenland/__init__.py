"""Greenland (third edition)."""
