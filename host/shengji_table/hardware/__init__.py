"""The physical table's making: circuits as code, drawings, BOM, the pin check, firmware deployment
(board files themselves: :mod:`shengji_table.board`)."""
