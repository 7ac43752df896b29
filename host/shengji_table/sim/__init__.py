"""The virtual table: the real firmware under a real MicroPython interpreter, with simulated
PN532 readers, rings and buttons standing in for the hardware we do not have."""
