# SPDX-License-Identifier: MIT
# scenario-timeout: 180
# Issue 34: 130 bonds of 4 slaves (520), link check and LLDP on, where bondd
# once ran out of open files and every repair failed.  Every bond whole and
# reported; b100 down is judged by a request that names no bond; slaves
# re-created or released across the bonds are put back.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/scale-lib.sh"

scale_check 130 100
