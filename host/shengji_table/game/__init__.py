"""The game layer: the hand and the match as event-sourced state machines over the rules layer.

``events`` (what a table reports) → ``hand`` / ``match`` (state, a pure function of the events) →
``effects`` (what the table shows).  ``view`` is the read-only per-seat view bots decide on;
``driver`` runs bots through the real card-entry path; ``record`` and ``export`` keep the match.
"""
