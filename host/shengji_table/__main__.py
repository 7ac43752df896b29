from shengji_table.cli import main
import sys
sys.exit(main())
