"""CPython only: makes this folder the host's data package ``shengji_table._firmware``
(``pyproject.toml``; the host reaches it through ``shengji_table.firmware_src``).

The firmware's modules are top-level modules on the Pico, and this file is none of them: the
firmware never imports it, and ``shengji-table flash`` neither compiles nor copies it.
"""
