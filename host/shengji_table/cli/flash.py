"""``shengji-table flash --port PORT --board boards/X.json [--sim] [--dry-run]``: build, check the
Pico's MicroPython (``hardware.flash.MIN_MICROPYTHON`` or later; "no Pico found" when none
answers), deploy.  ``--dry-run`` never touches the Pico."""
from __future__ import annotations

import argparse
import shlex

from ..board import BoardError
from ..hardware.flash import (FlashError, build_firmware, check_pico_firmware, deploy, mpremote_commands,
                              pico_firmware)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", required=True, help="the Pico's serial port (e.g. /dev/ttyACM0, or 'auto')")
    parser.add_argument("--board", required=True, help="board file, e.g. boards/table-4.json")
    parser.add_argument("--sim", action="store_true",
                        help="sim build: the Pico simulates its readers (tags placed by SIM messages)")
    parser.add_argument("--build-dir", default=None, help="build folder (default build/firmware/<board name>)")
    parser.add_argument("--dry-run", action="store_true", help="build, then print the mpremote commands only")


def run(args: argparse.Namespace) -> int:
    from ..board import load_board
    try:
        folder = args.build_dir or f"build/firmware/{load_board(args.board).name}{'-sim' if args.sim else ''}"
        build = build_firmware(args.board, folder, sim=args.sim)
        print(f"built {len(build.compiled)} modules for {build.board.name}{' (sim)' if build.sim else ''} "
              f"in {build.folder}")
        if args.dry_run:
            for argv in mpremote_commands(build, args.port):
                print(shlex.join(argv))
            return 0
        fw = pico_firmware(args.port)
        check_pico_firmware(fw)
        print(f"the Pico on {args.port} runs MicroPython {fw.version_text} (mpy {fw.mpy & 0xFF}): can run this build")
        deploy(build, args.port)
    except (BoardError, FlashError) as exc:
        print(f"shengji-table flash: {exc}")
        return 2
    print(f"flashed {build.board.name} to {args.port}")
    return 0
