// The clean twin of helper_frees_adopted_pointer: the helper (holder.cu) stores the pointer into
// the holder and keeps it there; main.cu frees it once, through the holder.
#pragma once

struct Holder {
  float *p;
};

void adopt(Holder *h, float *q);
