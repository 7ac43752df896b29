"""The physical side: the serial link to the Pico, the wire protocol, the card registry, the controller."""
