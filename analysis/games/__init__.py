"""Each game's own room: its questions (``questions``) and its report sections (``sections``), found by
the report through the game's plug-in (``sim/games/<game>/plugin.py``)."""
