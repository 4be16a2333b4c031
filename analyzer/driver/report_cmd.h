/* `gmemlint report`: the runtime view alone (text), or drawn (--html, --trace) with the static
 * findings joined when sources or findings files are given. */
#ifndef GM_REPORT_CMD_H
#define GM_REPORT_CMD_H

#include "driver/options.h"

/* The whole subcommand, from its parsed options. Exit status: 0, or 2 for bad input or a file
 * that could not be written (findings do not change it: the report is a view, not a gate). */
int gm_report_command(const gm_options *opt);

#endif
