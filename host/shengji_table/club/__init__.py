"""The club: movements, boards and duplicate scoring for an evening of several tables
(``docs/club-duplicate.md``)."""
