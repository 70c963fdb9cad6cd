"""Scripted strategies, found by name through ``strategies.registry``."""
