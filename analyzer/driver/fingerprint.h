/* Fingerprints of a file's findings, as --baseline and SARIF read them (docs/json-format.md). */
#ifndef GM_FINGERPRINT_H
#define GM_FINGERPRINT_H

#include "findings/report.h"
#include "support/source.h"

/* Sets each finding's fingerprint, `hash:occurrence`: a hash of the rule, the function and the
 * source line with whitespace removed (a line of `path`, whose text is src), and how many findings
 * with that hash come before it in the report's order, plus one; stable when unrelated lines
 * move. One sort of the hashes, so a file of many findings costs n log n. */
void driver_fingerprint_findings(gm_report *report, const char *path, const gm_source *src);

#endif
