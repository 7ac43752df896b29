"""``shengji-table demo``: for now, two hands of the classic preset with heuristic bots and a fixed
seed (``play --preset classic --seed 3 --hands 2``: a seed whose two hands show level changes).  A later issue replaces it with the virtual
table."""
from __future__ import annotations

import argparse

from . import play


def add_arguments(parser):
    parser.add_argument("--record", metavar="FILE", help="write the JSON match record here")


def run(args) -> int:
    return play.run(argparse.Namespace(preset="classic", seed=3, hands=2, record=args.record,
                                       bots="heuristic", quiet=False))
