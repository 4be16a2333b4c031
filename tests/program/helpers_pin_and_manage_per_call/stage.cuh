// Two per-chunk helpers (stage.cu) that allocate and free on every call: one pinned host memory,
// one managed memory. The loop that calls them is in another file (pipeline.cu); each finding
// names the cost of its own kind of memory, which the family table says (pinned, managed).
#pragma once
#include <cstddef>
void stage_chunk(const char *src, size_t bytes);
void score_chunk(int n);
