/* --explain: the findings a run keeps from its report, and why (explain.c). */
#ifndef GM_EXPLAIN_H
#define GM_EXPLAIN_H

#include "driver/driver.h"
#include "flow/flow.h"
#include "frontend/frontend.h"

/* Prefer silence: a leak or free judged only on paths that rest on what the flow engine could
 * not see (flow.h's gm_fact.latent) is reported with --latent alone. Takes the latent facts out
 * of ff; with --explain the rules judge them apart, and each finding they give that r does not
 * already hold is said as kept from the report ("latent"). */
void driver_drop_latent(gm_run *run, gm_file_result *r, const gm_parse *parse, gm_func_facts *ff);
/* Drops the "suppressed" notices: without --explain nothing says what was kept out. */
void driver_drop_explanations(gm_report *report);

#endif
