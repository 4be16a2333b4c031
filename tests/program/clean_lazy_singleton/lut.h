// A process-lifetime lookup table, created on first use and never freed: nothing else of the
// object is freed either, so it is a cache, not a forgotten member.
#pragma once

struct LookupTable {
  float *d_values;
  int *d_index;
};

const LookupTable &lookup_table();
