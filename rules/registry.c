/* The one place a rule is registered. Adding a rule: its file under rules/, a line here, a doc
 * page under docs/rules/, and tests under tests/analyzer/ (static rules) or tests/join/
 * (runtime evidence and runtime-only rules). */
#include "rules/rules.h"

#include <stdio.h>
#include <string.h>

extern const gm_rule gm001_unpaired_allocation;
extern const gm_rule gm002_mismatched_free;
extern const gm_rule gm003_double_free;
extern const gm_rule gm004_unpaired_host_allocation;
extern const gm_rule gm005_unfreed_at_exit;
extern const gm_rule gm010_allocation_in_loop;
extern const gm_rule gm020_growing_concatenation;
extern const gm_rule gm021_small_transfer_in_loop;
extern const gm_rule gm030_managed_dense_access;
extern const gm_rule gm031_managed_ping_pong;
extern const gm_rule gm101_leak_at_exit;
extern const gm_rule gm102_growth_across_steps;
extern const gm_rule gm103_oom_fragmentation;
extern const gm_rule gm104_oom_capacity;
extern const gm_rule gm105_runtime_mismatched_free;
extern const gm_rule gm106_runtime_double_free;
extern const gm_rule gm110_runtime_allocation_churn;
extern const gm_rule gm120_runtime_growing_reallocation;
extern const gm_rule gm121_runtime_small_copies;
extern const gm_rule gm130_runtime_on_demand_migration;
extern const gm_rule gm131_runtime_ping_pong;
extern const gm_rule gm140_runtime_memory_bound;
extern const gm_rule gm150_torch_leak_per_step;
extern const gm_rule gm151_torch_cache_growth;
extern const gm_rule gm152_torch_oom;
extern const gm_rule gm153_torch_fragmentation;
extern const gm_rule gm154_torch_regrowth;

const gm_rule *const gm_rules[] = {
    &gm001_unpaired_allocation,
    &gm002_mismatched_free,
    &gm003_double_free,
    &gm004_unpaired_host_allocation,
    &gm005_unfreed_at_exit,
    &gm010_allocation_in_loop,
    &gm020_growing_concatenation,
    &gm021_small_transfer_in_loop,
    &gm030_managed_dense_access,
    &gm031_managed_ping_pong,
    /* runtime only: findings from the telemetry alone (--telemetry) */
    &gm101_leak_at_exit,
    &gm102_growth_across_steps,
    &gm103_oom_fragmentation,
    &gm104_oom_capacity,
    &gm105_runtime_mismatched_free,
    &gm106_runtime_double_free,
    &gm110_runtime_allocation_churn,
    &gm120_runtime_growing_reallocation,
    &gm121_runtime_small_copies,
    &gm130_runtime_on_demand_migration,
    &gm131_runtime_ping_pong,
    &gm140_runtime_memory_bound,
    /* runtime only: the PyTorch view (the companion file and its snapshots) */
    &gm150_torch_leak_per_step,
    &gm151_torch_cache_growth,
    &gm152_torch_oom,
    &gm153_torch_fragmentation,
    &gm154_torch_regrowth,
};
const size_t gm_rule_count = sizeof gm_rules / sizeof gm_rules[0];
const gm_rule_table gm_rule_registry = {gm_rules, sizeof gm_rules / sizeof gm_rules[0]};

const gm_rule *gm_rule_find(const char *id_or_name) {
  return gm_rule_table_find(&gm_rule_registry, id_or_name);
}

char *gm_describe_allocation(const gm_fact *f) {
  const char *fam = f->family ? f->family->description : "memory";
  const char *fn = gm_call_display_name(f->alloc);
  if (f->var)
    return gm_xasprintf("'%s' (%s from %s)", f->var, fam, fn);
  return gm_xasprintf("%s from %s", fam, fn);
}
