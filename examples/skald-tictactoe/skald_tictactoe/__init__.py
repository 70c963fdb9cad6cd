"""Tic-tac-toe for Skald: rules (``game``), a strategy (``strategies``), a report section (``report``)
and the plug-in declaration that registers them (``plugin``)."""
