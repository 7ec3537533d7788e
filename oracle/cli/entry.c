/* entry.c: the zoneoracle command's main: the CLI itself is zo_cli_main
 * (main.c), so that the shared library and the WebAssembly build can run
 * it inside a host process (the Python and npm packages). */
#include "cli.h"

int main(int argc, char **argv) { return zo_cli_main(argc, argv); }
