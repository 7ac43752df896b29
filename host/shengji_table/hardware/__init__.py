"""The physical table as data: board files (pins, readers, rings, buttons) and firmware deployment."""
