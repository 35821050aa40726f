# SPDX-License-Identifier: MIT
# scenario-timeout: 240
# Issue 34: 256 bonds of 4 slaves (1,024), link check and LLDP on: as 230,
# with b200 down.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/scale-lib.sh"

scale_check 256 200
