"""The ``skald`` subcommands, one module per job; ``sim.cli`` assembles them and turns errors into
one line.  ``base`` holds the typer app, the consoles and the options several commands share."""
