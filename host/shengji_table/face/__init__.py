"""What people at the table see and hear, for a real table and the virtual one alike: the
terminal view, the voice and the web pages (the public table and the referee's console).

It reads the table layer (the controller's state, the service's outcomes) and the game's
disclosure policy (``game/disclosure.py``): nothing here decides what is hidden.
"""
