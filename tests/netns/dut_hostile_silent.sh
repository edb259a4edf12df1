# dut_hostile's silent agent (40 s of waiting for its hello): see there.
WR_DUT_SILENT=1 exec bash "$(dirname "$0")/dut_hostile.sh"
