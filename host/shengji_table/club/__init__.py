"""The club: many tables reporting over MQTT to one club server (``docs/club.md``).

==================  =======================================================================