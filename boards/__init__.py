"""CPython only: makes this folder of board files the host's data package ``shengji_table._boards``
(``pyproject.toml``; the host reaches it through ``shengji_table.board``).  Not a board file."""
