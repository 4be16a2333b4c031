/* `gmemlint report`: the runtime view alone (text), or drawn (--html, --trace) with the static
 * findings joined when sources or findings files are given. */
#ifndef GM_REPORT_CMD_H
#define GM_REPORT_CMD_H

#include "driver/options.h"

/* Exit status as for the command (0, 1 with findings, 2 for bad input). */
int gm_report_command(const gm_options *opt);

#endif
