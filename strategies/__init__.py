"""Scripted and search strategies, found by name through ``sim.specs``."""
