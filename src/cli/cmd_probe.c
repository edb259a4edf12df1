#include "cli/cli.h"
int cmd_probe(struct cli *cli, int argc, char **argv) { return 0; }
