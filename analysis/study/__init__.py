"""Studies: the packaged studies and running them (``study``), playing until decided
(``sequential_study``), one attempt at a study (``attempt``) and the packaged study files
(``studies/*.toml``)."""
